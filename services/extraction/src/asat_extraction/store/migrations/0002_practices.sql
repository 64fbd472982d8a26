-- Documents, transactions and corrections belong to a practice (issue 18 item 2), under row-level
-- security ENABLEd and FORCEd (the owner is bound too), like the tenant tables of schema app
-- (docs/accounts.md). A row is visible and writable only inside a transaction that set
-- app.practice_id (SET LOCAL, or set_config(..., true)) to its practice; the store does so for
-- every operation, with the practice the web sent (X-AsAt-Practice).
--
-- practice_id is not a foreign key to app.practices: this schema migrates on its own, with or
-- before schema app, and the practice comes from the web's signed-in session.
--
-- Rows stored before this migration have no practice. On a non-empty schema the migration stops,
-- unless the runner was given the practice to own them (python -m asat_extraction migrate
-- --existing-rows-practice ID, or ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE=ID, sets the session
-- setting asat.existing_rows_practice).

-- The practice this transaction acts for; an error that says how to set it when it is not set
-- (a query that forgot the practice fails instead of returning nothing).
CREATE FUNCTION extraction.current_practice_id() RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    setting text := current_setting('app.practice_id', true);
BEGIN
    IF setting IS NULL OR setting = '' THEN
        RAISE EXCEPTION 'no practice is set for this transaction (app.practice_id)'
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'read and write schema extraction in a transaction that first runs '
                         'SET LOCAL app.practice_id = <id> (asat_extraction''s PostgresStore does)';
    END IF;
    RETURN setting::bigint;
END
$$;

ALTER TABLE extraction.documents ADD COLUMN practice_id bigint;
ALTER TABLE extraction.transactions ADD COLUMN practice_id bigint;
ALTER TABLE extraction.corrections ADD COLUMN practice_id bigint;

DO $$
DECLARE
    chosen text := nullif(current_setting('asat.existing_rows_practice', true), '');
    documents bigint := (SELECT count(*) FROM extraction.documents);
    transactions bigint := (SELECT count(*) FROM extraction.transactions);
    corrections bigint := (SELECT count(*) FROM extraction.corrections);
BEGIN
    IF documents + transactions + corrections = 0 THEN
        RETURN;
    END IF;
    IF chosen IS NULL THEN
        RAISE EXCEPTION 'schema extraction holds % document(s), % transaction(s) and % correction(s) stored before '
            'documents belonged to a practice: give them to one practice with `python -m asat_extraction migrate '
            '--existing-rows-practice <practice id>` (as the owner role; for make up, set '
            'ASAT_EXTRACTION_EXISTING_ROWS_PRACTICE=<practice id>), or delete them, then migrate again',
            documents, transactions, corrections
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    IF chosen !~ '^[1-9][0-9]{0,17}$' THEN
        RAISE EXCEPTION 'asat.existing_rows_practice = % is not a practice id (a whole number from 1)', chosen;
    END IF;
    UPDATE extraction.documents SET practice_id = chosen::bigint;
    UPDATE extraction.transactions SET practice_id = chosen::bigint;
    UPDATE extraction.corrections SET practice_id = chosen::bigint;
END
$$;

ALTER TABLE extraction.documents ALTER COLUMN practice_id SET NOT NULL;
ALTER TABLE extraction.transactions ALTER COLUMN practice_id SET NOT NULL;
ALTER TABLE extraction.corrections ALTER COLUMN practice_id SET NOT NULL;

-- The same bytes are one document per practice: another practice's upload of them is its own.
ALTER TABLE extraction.documents DROP CONSTRAINT documents_sha256_key;
ALTER TABLE extraction.documents ADD CONSTRAINT documents_practice_sha256_key UNIQUE (practice_id, sha256);

-- A transaction belongs to its document's practice, and a correction to its transaction's: the
-- keys carry the practice, so no row can point into another practice.
ALTER TABLE extraction.documents ADD CONSTRAINT documents_practice_id_key UNIQUE (practice_id, id);
ALTER TABLE extraction.transactions ADD CONSTRAINT transactions_practice_id_key UNIQUE (practice_id, id);
ALTER TABLE extraction.transactions DROP CONSTRAINT transactions_document_id_fkey;
ALTER TABLE extraction.transactions ADD CONSTRAINT transactions_document_fkey
    FOREIGN KEY (practice_id, document_id) REFERENCES extraction.documents (practice_id, id);
ALTER TABLE extraction.corrections DROP CONSTRAINT corrections_transaction_id_fkey;
ALTER TABLE extraction.corrections ADD CONSTRAINT corrections_transaction_fkey
    FOREIGN KEY (practice_id, transaction_id) REFERENCES extraction.transactions (practice_id, id);

-- A practice's transactions, newest first (GET /v1/transactions).
CREATE INDEX transactions_practice_created ON extraction.transactions (practice_id, created_at DESC, id DESC);

-- Row-level security --------------------------------------------------------------------------

ALTER TABLE extraction.documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE extraction.documents FORCE ROW LEVEL SECURITY;
ALTER TABLE extraction.transactions ENABLE ROW LEVEL SECURITY;
ALTER TABLE extraction.transactions FORCE ROW LEVEL SECURITY;
ALTER TABLE extraction.corrections ENABLE ROW LEVEL SECURITY;
ALTER TABLE extraction.corrections FORCE ROW LEVEL SECURITY;

-- Only the practice's own rows, read or written. `(SELECT f())` is evaluated once per statement.
CREATE POLICY documents_of_the_practice ON extraction.documents FOR ALL
    USING (practice_id = (SELECT extraction.current_practice_id()))
    WITH CHECK (practice_id = (SELECT extraction.current_practice_id()));

CREATE POLICY transactions_of_the_practice ON extraction.transactions FOR ALL
    USING (practice_id = (SELECT extraction.current_practice_id()))
    WITH CHECK (practice_id = (SELECT extraction.current_practice_id()));

CREATE POLICY corrections_of_the_practice ON extraction.corrections FOR ALL
    USING (practice_id = (SELECT extraction.current_practice_id()))
    WITH CHECK (practice_id = (SELECT extraction.current_practice_id()));
