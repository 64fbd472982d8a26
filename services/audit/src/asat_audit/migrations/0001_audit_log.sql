-- The audit log: append-only, hash-chained. Applied by the owner role; the app role gets
-- SELECT and INSERT only (granted by the migration runner, not here).

CREATE TABLE research.audit_log (
    id                bigint      PRIMARY KEY CHECK (id >= 1),
    recorded_at       timestamptz NOT NULL,
    request_id        text        NOT NULL,
    question          text        NOT NULL,
    as_of             date,
    income_year       integer,
    decision          text        NOT NULL,
    reasons           jsonb       NOT NULL CHECK (jsonb_typeof(reasons) = 'array'),
    citations         jsonb       NOT NULL CHECK (jsonb_typeof(citations) = 'array'),
    verified_quotes   jsonb       NOT NULL CHECK (jsonb_typeof(verified_quotes) = 'array'),
    reading_list      jsonb       NOT NULL CHECK (jsonb_typeof(reading_list) = 'array'),
    provider          text        NOT NULL,
    model             text        NOT NULL,
    seed              bigint,
    corpus_generation text        NOT NULL,
    latencies         jsonb       NOT NULL CHECK (jsonb_typeof(latencies) = 'array'),
    prev_hash         text        NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
    hash              text        NOT NULL UNIQUE CHECK (hash ~ '^[0-9a-f]{64}$')
);

CREATE INDEX audit_log_request_id ON research.audit_log (request_id);

REVOKE ALL ON research.audit_log FROM PUBLIC;

-- No row is ever changed or removed, not even by the owner. (A superuser or the owner can still
-- disable the trigger; the hash chain is what detects that.)
CREATE FUNCTION research.audit_log_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'research.audit_log is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'audit rows are never changed or removed; append a new row instead';
END
$$;

CREATE TRIGGER audit_log_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON research.audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION research.audit_log_reject_change();

-- Every new row must extend the chain: id = last id + 1 and prev_hash = last hash. Writers
-- serialise on an advisory lock; this check makes a writer that does not fail instead of forking
-- the chain. (Whether the hash covers the row is checked by `python -m asat_research.audit verify`.)
CREATE FUNCTION research.audit_log_check_link() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    last_id   bigint;
    last_hash text;
BEGIN
    SELECT id, hash INTO last_id, last_hash FROM research.audit_log ORDER BY id DESC LIMIT 1;
    IF NOT FOUND THEN
        last_id := 0;
        last_hash := repeat('0', 64);
    END IF;
    IF NEW.id <> last_id + 1 OR NEW.prev_hash <> last_hash THEN
        RAISE EXCEPTION 'audit row % does not extend the chain (last row is %, prev_hash must be %)',
            NEW.id, last_id, last_hash
            USING ERRCODE = 'serialization_failure',
                  HINT = 'append under the audit chain advisory lock (PostgresAuditStore.append does)';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER audit_log_extends_chain
    BEFORE INSERT ON research.audit_log
    FOR EACH ROW EXECUTE FUNCTION research.audit_log_check_link();
