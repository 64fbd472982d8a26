-- Research history: each question a member of a practice asked and research answered (or abstained
-- on), one row per audit log row, in schema app under row-level security like the tables of 0001.
--
-- The audit log (research.audit_log) stays one hash chain across every practice, reachable only by
-- the services holding the service token; this table is the practice's own index into it. The web
-- writes a row for every outcome research returns to a signed-in user, lists the practice's history
-- and audit rows from here, and opens an audit row (its page, its file notes, a quote checked
-- against it) only when the practice holds it here. Append-only from the app's side: the app role
-- may SELECT and INSERT, never UPDATE or DELETE (asat_accounts.migrate.APP_PRIVILEGES).

CREATE TABLE app.research_history (
    practice_id       bigint      NOT NULL REFERENCES app.practices (id),
    audit_id          bigint      NOT NULL CHECK (audit_id > 0),
    user_id           bigint      NOT NULL REFERENCES app.users (id),
    client_id         bigint,
    question          text        NOT NULL CHECK (btrim(question) <> '' AND length(question) <= 4000),
    period            text        NOT NULL CHECK (btrim(period) <> '' AND length(period) <= 200),
    decision          text        NOT NULL CHECK (decision ~ '^[a-z][a-z_]{0,59}$'),
    corpus_generation text        NOT NULL DEFAULT '' CHECK (length(corpus_generation) <= 200),
    asked_at          timestamptz NOT NULL,
    PRIMARY KEY (practice_id, audit_id),  -- also the history's order: newest (highest row) first
    -- The client, when one was chosen, is one of the same practice's (clients are archived, not removed).
    FOREIGN KEY (practice_id, client_id) REFERENCES app.clients (practice_id, id)
);

ALTER TABLE app.research_history ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.research_history FORCE ROW LEVEL SECURITY;

-- A tenant table: only the practice's own rows are read, and only rows of the practice the
-- transaction acts for are added. No UPDATE or DELETE policy: with none, nothing is changed or
-- removed even were the privilege granted.
CREATE POLICY research_history_read ON app.research_history FOR SELECT
    USING (practice_id = (SELECT app.current_practice_id()));
CREATE POLICY research_history_added ON app.research_history FOR INSERT
    WITH CHECK (practice_id = (SELECT app.current_practice_id()));
