-- Who asked: the signed-in user (id and email), the practice they asked for and the practice's
-- client (null when none), as one JSON object (asat_audit.canonical.asked_by_document). Nullable:
-- rows stored before it existed, and questions asked without a signed-in user (the terminal
-- client, evaluation), have none, and a row without it is hashed exactly as before (the column
-- enters the hashed document only when set). The app role's table-level SELECT and INSERT
-- (granted by the migration runner) cover the new column. The index serves the web's history and
-- audit pages, which list one practice's rows.

ALTER TABLE research.audit_log ADD COLUMN asked_by jsonb
    CHECK (asked_by IS NULL OR (jsonb_typeof(asked_by) = 'object'
                                AND jsonb_typeof(asked_by -> 'practice_id') = 'number'));

CREATE INDEX audit_log_practice ON research.audit_log (((asked_by ->> 'practice_id')::bigint), id);
