-- The known-time date of a question ("the text as the latest held compilation on or before that
-- date shows it"). Nullable: rows stored before it existed have none, and a row without it is
-- hashed exactly as before (the column enters the hashed document only when set). The app role's
-- table-level SELECT and INSERT (granted by the migration runner) cover the new column.

ALTER TABLE research.audit_log ADD COLUMN as_known_on date;
