-- Connections to Xero and HubSpot (the asat_connections library, docs/connections.md), in schema
-- app under row-level security like the tables of 0001: every table here is a tenant table
-- (practice_id), readable and writable only in a transaction that set app.practice_id.
--
-- No token, app secret, authorisation code or PKCE verifier is a column here: they are sealed
-- secrets of app.secrets (connection:xero:app:client-id, connection:xero:app:client-secret,
-- connection:xero:<client>:access, :refresh, :verifier, connection:hubspot:token). Of the OAuth
-- state only its SHA-256 is kept.

-- A connection always belongs to a client of the same practice (composite foreign keys below).
ALTER TABLE app.clients ADD CONSTRAINT clients_practice_client UNIQUE (practice_id, id);

-- A client's connection to one Xero organisation (tenant). status: connected; needs_reauthorisation
-- (revoked or expired: problem says why; never retried until connected again); choose_organisation
-- (the consent authorised several: choices lists them until one is chosen).
CREATE TABLE app.xero_connections (
    practice_id        bigint      NOT NULL REFERENCES app.practices (id),
    client_id          bigint      NOT NULL,
    status             text        NOT NULL
                                   CHECK (status IN ('connected', 'needs_reauthorisation', 'choose_organisation')),
    tenant_id          uuid,
    tenant_name        text        NOT NULL DEFAULT '' CHECK (length(tenant_name) <= 500),
    xero_connection_id uuid,
    choices            jsonb       NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(choices) = 'array'),
    access_expires_at  timestamptz,
    problem            text        NOT NULL DEFAULT '' CHECK (length(problem) <= 2000),
    connected_at       timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    PRIMARY KEY (practice_id, client_id),
    FOREIGN KEY (practice_id, client_id) REFERENCES app.clients (practice_id, id),
    CHECK (status <> 'connected' OR tenant_id IS NOT NULL)
);

-- One organisation per client, and an organisation connected to one client of a practice.
CREATE UNIQUE INDEX xero_connections_organisation ON app.xero_connections (practice_id, tenant_id)
    WHERE tenant_id IS NOT NULL;

-- An OAuth dance under way (the browser is at Xero): the state's digest, single use, short-lived.
CREATE TABLE app.xero_authorisations (
    practice_id  bigint      NOT NULL REFERENCES app.practices (id),
    client_id    bigint      NOT NULL,
    state_digest text        NOT NULL UNIQUE CHECK (state_digest ~ '^[0-9a-f]{64}$'),
    redirect_uri text        NOT NULL CHECK (length(redirect_uri) BETWEEN 1 AND 2000),
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (practice_id, client_id),
    FOREIGN KEY (practice_id, client_id) REFERENCES app.clients (practice_id, id),
    CHECK (expires_at > created_at)
);

-- The push ledger: one row per transaction (extraction's id) ever pushed, to one organisation.
-- A pushed row keeps its Xero invoice id for good (the trigger below), and the app role may not
-- delete rows, so a transaction pushed once is never pushed twice.
CREATE TABLE app.xero_pushes (
    practice_id     bigint      NOT NULL REFERENCES app.practices (id),
    transaction_id  uuid        NOT NULL,
    client_id       bigint      NOT NULL,
    tenant_id       uuid        NOT NULL,
    state           text        NOT NULL CHECK (state IN ('pending', 'pushed', 'failed')),
    invoice_id      uuid,
    contact_id      uuid,
    attachment_id   uuid,
    idempotency_key text        NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 128),
    attempts        integer     NOT NULL CHECK (attempts >= 1),
    ambiguous       boolean     NOT NULL DEFAULT false,
    problem         text        NOT NULL DEFAULT '' CHECK (length(problem) <= 2000),
    retryable       boolean     NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    PRIMARY KEY (practice_id, transaction_id),
    FOREIGN KEY (practice_id, client_id) REFERENCES app.clients (practice_id, id),
    CHECK (state <> 'pushed' OR invoice_id IS NOT NULL)
);

CREATE FUNCTION app.xero_pushes_keep_the_bill() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.invoice_id IS NOT NULL AND NEW.invoice_id IS DISTINCT FROM OLD.invoice_id THEN
        RAISE EXCEPTION 'transaction % was pushed as Xero invoice %; its ledger row cannot change it',
            OLD.transaction_id, OLD.invoice_id USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.state = 'pushed' AND NEW.state <> 'pushed' THEN
        RAISE EXCEPTION 'transaction % is pushed; its ledger row cannot go back to %', OLD.transaction_id, NEW.state
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER xero_pushes_keep_the_bill BEFORE UPDATE ON app.xero_pushes
    FOR EACH ROW EXECUTE FUNCTION app.xero_pushes_keep_the_bill();

-- The practice's HubSpot connection (its token is the secret connection:hubspot:token).
CREATE TABLE app.hubspot_connections (
    practice_id  bigint      PRIMARY KEY REFERENCES app.practices (id),
    hub_id       bigint      NOT NULL,
    scopes       text[]      NOT NULL DEFAULT '{}' CHECK (cardinality(scopes) <= 500),
    connected_at timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);

-- The import ledger: each HubSpot company imported once (created a client, or linked to an
-- existing one, which is never modified).
CREATE TABLE app.hubspot_imports (
    practice_id bigint      NOT NULL REFERENCES app.practices (id),
    company_id  text        NOT NULL CHECK (company_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    client_id   bigint      NOT NULL,
    result      text        NOT NULL CHECK (result IN ('created', 'matched')),
    imported_at timestamptz NOT NULL,
    PRIMARY KEY (practice_id, company_id),
    FOREIGN KEY (practice_id, client_id) REFERENCES app.clients (practice_id, id)
);

ALTER TABLE app.xero_connections ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.xero_connections FORCE ROW LEVEL SECURITY;
ALTER TABLE app.xero_authorisations ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.xero_authorisations FORCE ROW LEVEL SECURITY;
ALTER TABLE app.xero_pushes ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.xero_pushes FORCE ROW LEVEL SECURITY;
ALTER TABLE app.hubspot_connections ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.hubspot_connections FORCE ROW LEVEL SECURITY;
ALTER TABLE app.hubspot_imports ENABLE ROW LEVEL SECURITY;
ALTER TABLE app.hubspot_imports FORCE ROW LEVEL SECURITY;

CREATE POLICY xero_connections_of_the_practice ON app.xero_connections FOR ALL
    USING (practice_id = (SELECT app.current_practice_id()))
    WITH CHECK (practice_id = (SELECT app.current_practice_id()));

CREATE POLICY xero_authorisations_of_the_practice ON app.xero_authorisations FOR ALL
    USING (practice_id = (SELECT app.current_practice_id()))
    WITH CHECK (practice_id = (SELECT app.current_practice_id()));

CREATE POLICY xero_pushes_of_the_practice ON app.xero_pushes FOR ALL
    USING (practice_id = (SELECT app.current_practice_id()))
    WITH CHECK (practice_id = (SELECT app.current_practice_id()));

CREATE POLICY hubspot_connections_of_the_practice ON app.hubspot_connections FOR ALL
    USING (practice_id = (SELECT app.current_practice_id()))
    WITH CHECK (practice_id = (SELECT app.current_practice_id()));

CREATE POLICY hubspot_imports_of_the_practice ON app.hubspot_imports FOR ALL
    USING (practice_id = (SELECT app.current_practice_id()))
    WITH CHECK (practice_id = (SELECT app.current_practice_id()));
