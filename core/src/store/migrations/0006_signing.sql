-- Personal links the family opens without a staff account: one document, one purpose.
-- Only the SHA-256 of the token is kept; the token itself travels in the email alone.
CREATE TABLE signing_links (
    id              TEXT PRIMARY KEY,
    token_hash      TEXT NOT NULL UNIQUE,
    purpose         TEXT NOT NULL CHECK (purpose IN ('proposal_approval', 'contract_signing')),
    care_plan_id    TEXT REFERENCES care_plan_proposals(id),
    contract_id     TEXT REFERENCES contracts(id),
    intake_id       TEXT REFERENCES intakes(id),
    -- SHA-256 of the document as it was sent: a document changed since does not match.
    document_sha256 TEXT NOT NULL,
    recipient_email TEXT NOT NULL,
    -- Who sent it: the signed contract's confirmation goes to them as well.
    created_by      TEXT REFERENCES users(id),
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    opened_at       TEXT,
    used_at         TEXT,
    revoked_at      TEXT,
    version         INTEGER NOT NULL DEFAULT 1,
    CHECK ((purpose = 'proposal_approval' AND care_plan_id IS NOT NULL)
        OR (purpose = 'contract_signing' AND contract_id IS NOT NULL))
);
CREATE INDEX signing_links_care_plan ON signing_links(care_plan_id, created_at) WHERE care_plan_id IS NOT NULL;
CREATE INDEX signing_links_contract ON signing_links(contract_id, created_at) WHERE contract_id IS NOT NULL;

-- What a signature or an approval proves: who, when, from where, what they agreed to, and
-- the SHA-256 of the exact document shown. A signed contract keeps its signed PDF and
-- that file's SHA-256, which `contract verify` compares.
CREATE TABLE signatures (
    id                TEXT PRIMARY KEY,
    link_id           TEXT REFERENCES signing_links(id),
    purpose           TEXT NOT NULL CHECK (purpose IN ('proposal_approval', 'contract_signing')),
    care_plan_id      TEXT REFERENCES care_plan_proposals(id),
    contract_id       TEXT REFERENCES contracts(id),
    method            TEXT NOT NULL CHECK (method IN ('typed', 'drawn', 'approval', 'paper')),
    signer_name       TEXT NOT NULL,
    relationship      TEXT NOT NULL DEFAULT '',
    typed_signature   TEXT NOT NULL DEFAULT '',
    -- Drawn strokes as JSON: [[[x, y], ...], ...], each coordinate 0..1 of the pad.
    drawn_signature   TEXT NOT NULL DEFAULT '[]',
    consent_text      TEXT NOT NULL DEFAULT '',
    ip_address        TEXT NOT NULL DEFAULT '',
    user_agent        TEXT NOT NULL DEFAULT '',
    document_sha256   TEXT NOT NULL,
    signed_at         TEXT NOT NULL,
    recorded_by       TEXT REFERENCES users(id),
    signed_pdf        BLOB,
    signed_pdf_sha256 TEXT,
    created_at        TEXT NOT NULL
);
CREATE INDEX signatures_contract ON signatures(contract_id) WHERE contract_id IS NOT NULL;
CREATE INDEX signatures_care_plan ON signatures(care_plan_id) WHERE care_plan_id IS NOT NULL;
CREATE UNIQUE INDEX signatures_pdf ON signatures(signed_pdf_sha256) WHERE signed_pdf_sha256 IS NOT NULL;
