-- Documents as uploaded (bytes kept), their extracted transactions, and corrections to them.
CREATE TABLE extraction.documents (
    id uuid PRIMARY KEY,
    filename text NOT NULL,
    media_type text NOT NULL,
    sha256 text NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    size integer NOT NULL CHECK (size > 0),
    content bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE extraction.transactions (
    id uuid PRIMARY KEY,
    document_id uuid NOT NULL UNIQUE REFERENCES extraction.documents (id),
    extractor text NOT NULL,
    "values" jsonb NOT NULL,
    original jsonb NOT NULL,
    extraction jsonb NOT NULL,
    review_status text NOT NULL DEFAULT 'pending'
        CHECK (review_status IN ('pending', 'confirmed', 'corrected', 'rejected')),
    kind text GENERATED ALWAYS AS ("values" ->> 'kind') STORED,
    supplier_abn text GENERATED ALWAYS AS ("values" ->> 'supplier_abn') STORED,
    currency text GENERATED ALWAYS AS ("values" ->> 'currency') STORED,
    issue_date text GENERATED ALWAYS AS ("values" ->> 'issue_date') STORED,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX transactions_review_status ON extraction.transactions (review_status, created_at DESC);
CREATE INDEX transactions_supplier_abn ON extraction.transactions (supplier_abn);
CREATE INDEX transactions_issue_date ON extraction.transactions (issue_date);

CREATE TABLE extraction.corrections (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id uuid NOT NULL REFERENCES extraction.transactions (id),
    who text NOT NULL CHECK (length(who) > 0),
    at timestamptz NOT NULL DEFAULT now(),
    changes jsonb NOT NULL,
    before jsonb NOT NULL,
    note text
);

CREATE INDEX corrections_transaction ON extraction.corrections (transaction_id, at);
