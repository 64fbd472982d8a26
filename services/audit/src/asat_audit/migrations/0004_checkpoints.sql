-- The database's copy of the signed checkpoints of the chain (the authoritative copy is the
-- append-only file outside the database; `python -m asat_audit verify` checks the two agree).
-- Each row is a checkpoint exactly as its file line (asat_audit.checkpoint.to_json). Append-only
-- like the log: the checkpointer (app role) may only SELECT and INSERT (granted by the runner).

CREATE TABLE research.audit_checkpoints (
    last_id bigint PRIMARY KEY CHECK (last_id >= 1),
    first_id bigint NOT NULL CHECK (first_id BETWEEN 1 AND last_id),
    body text NOT NULL,
    stored_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

REVOKE ALL ON research.audit_checkpoints FROM PUBLIC;

CREATE TRIGGER audit_checkpoints_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON research.audit_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION research.audit_log_reject_change();
