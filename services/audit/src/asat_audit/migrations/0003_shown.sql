-- What the user was shown: the research outcome as served (every claim with its quotes and
-- ranges, the reading list, the note, premise_rejected, groundedness, caveats, the period),
-- as one JSON object kept as text, so that the hash covers exactly the bytes stored. Nullable:
-- rows stored before it existed have none, and a row without it is hashed exactly as before (the
-- column enters the hashed document only when set). The app role's table-level SELECT and
-- INSERT (granted by the migration runner) cover the new column.

ALTER TABLE research.audit_log ADD COLUMN shown text;
