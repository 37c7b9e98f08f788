-- Carepath schema 1: every table of the pipeline, staff, templates, settings, sign-in
-- and the audit log. Times are UTC RFC 3339 text of fixed width, so text order is time
-- order. Every mutable row has `version` for optimistic concurrency.

CREATE TABLE users (
    id              TEXT PRIMARY KEY,
    email           TEXT NOT NULL UNIQUE COLLATE NOCASE,
    full_name       TEXT NOT NULL,
    password_hash   TEXT,
    disabled        INTEGER NOT NULL DEFAULT 0,
    failed_sign_ins INTEGER NOT NULL DEFAULT 0,
    last_failed_at  TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    version         INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE user_roles (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('admin')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, role)
) WITHOUT ROWID;

CREATE TABLE invitations (
    email       TEXT PRIMARY KEY COLLATE NOCASE,
    invited_by  TEXT REFERENCES users(id) ON DELETE SET NULL,
    is_admin    INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    accepted_at TEXT
);

CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE auth_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('magic_link', 'recovery')),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX auth_tokens_user ON auth_tokens(user_id);

CREATE TABLE import_batches (
    id            TEXT PRIMARY KEY,
    file_name     TEXT NOT NULL,
    file_sha256   TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    created_by    TEXT REFERENCES users(id) ON DELETE SET NULL,
    rows_created  INTEGER NOT NULL DEFAULT 0,
    rows_updated  INTEGER NOT NULL DEFAULT 0,
    rows_skipped  INTEGER NOT NULL DEFAULT 0,
    undone_at     TEXT
);
CREATE INDEX import_batches_file ON import_batches(file_sha256);

-- One row per client lead. `seq` is the stable rowid the search index points at.
CREATE TABLE intakes (
    seq                       INTEGER PRIMARY KEY,
    id                        TEXT NOT NULL UNIQUE,
    client_full_name          TEXT NOT NULL COLLATE NOCASE,
    date_of_birth             TEXT,
    caller_name               TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
    caller_phone              TEXT NOT NULL DEFAULT '',
    caller_phone_digits       TEXT NOT NULL DEFAULT '',
    caller_email              TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
    services_required         TEXT NOT NULL DEFAULT '[]',
    living_situation          TEXT NOT NULL DEFAULT '[]',
    proposed_schedule         TEXT NOT NULL DEFAULT '{}',
    referral_source           TEXT,
    form_data                 TEXT NOT NULL,
    status                    TEXT NOT NULL,
    is_draft                  INTEGER NOT NULL DEFAULT 0,
    assigned_coordinator      TEXT,
    created_at                TEXT NOT NULL,
    updated_at                TEXT NOT NULL,
    last_contact_date         TEXT,
    next_follow_up_date       TEXT,
    follow_up_notes           TEXT,
    assessment_scheduled_date TEXT,
    deleted_at                TEXT,
    version                   INTEGER NOT NULL DEFAULT 1,
    import_batch_id           TEXT REFERENCES import_batches(id),
    -- Pipeline position, kept by core in the same transaction as every change that
    -- moves the client, so stage and urgency filter through indexes.
    stage                     TEXT NOT NULL DEFAULT 'intake'
                              CHECK (stage IN ('intake', 'assessment', 'care_plan', 'contract')),
    stage_entered_at          TEXT NOT NULL,
    overdue_at                TEXT NOT NULL,
    archived                  INTEGER NOT NULL DEFAULT 0,
    latest_assessment_id      TEXT,
    latest_assessment_status  TEXT,
    latest_assessment_at      TEXT,
    latest_care_plan_id       TEXT,
    latest_care_plan_status   TEXT,
    latest_care_plan_at       TEXT,
    latest_contract_id        TEXT,
    latest_contract_status    TEXT,
    latest_contract_at        TEXT
);
CREATE INDEX intakes_recent ON intakes(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage ON intakes(archived, stage, created_at, id) WHERE deleted_at IS NULL;
-- The urgency filters page in their own order (most overdue first, longest in stage
-- first), each along its own index, so a page never scans past non-matching rows.
CREATE INDEX intakes_stage_overdue ON intakes(archived, stage, overdue_at, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage_entered ON intakes(archived, stage, stage_entered_at, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_entered ON intakes(archived, stage_entered_at, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage_name ON intakes(archived, stage, client_full_name, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_name ON intakes(client_full_name, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_overdue ON intakes(archived, overdue_at, id) WHERE deleted_at IS NULL;
CREATE INDEX intakes_follow_up ON intakes(next_follow_up_date) WHERE deleted_at IS NULL;
CREATE INDEX intakes_caller_email ON intakes(caller_email) WHERE deleted_at IS NULL;
CREATE INDEX intakes_phone_digits ON intakes(caller_phone_digits) WHERE deleted_at IS NULL;
CREATE INDEX intakes_awaiting ON intakes(created_at)
    WHERE deleted_at IS NULL AND assessment_scheduled_date IS NULL
      AND latest_assessment_id IS NULL AND status IN ('intake_created', 'pending');
CREATE INDEX intakes_import_batch ON intakes(import_batch_id) WHERE import_batch_id IS NOT NULL;

-- Trigram search over the fields staff search by. 2-character terms use the
-- prefix indexes above instead (trigrams need 3).
CREATE VIRTUAL TABLE intakes_search USING fts5(
    client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email,
    content = 'intakes', content_rowid = 'seq', tokenize = 'trigram'
);
CREATE TRIGGER intakes_search_insert AFTER INSERT ON intakes BEGIN
    INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES (new.seq, new.client_full_name, new.caller_name, new.caller_phone, new.caller_phone_digits, new.caller_email);
END;
CREATE TRIGGER intakes_search_delete AFTER DELETE ON intakes BEGIN
    INSERT INTO intakes_search(intakes_search, rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES ('delete', old.seq, old.client_full_name, old.caller_name, old.caller_phone, old.caller_phone_digits, old.caller_email);
END;
CREATE TRIGGER intakes_search_update AFTER UPDATE OF client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email ON intakes BEGIN
    INSERT INTO intakes_search(intakes_search, rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES ('delete', old.seq, old.client_full_name, old.caller_name, old.caller_phone, old.caller_phone_digits, old.caller_email);
    INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES (new.seq, new.client_full_name, new.caller_name, new.caller_phone, new.caller_phone_digits, new.caller_email);
END;

CREATE TABLE assessments (
    id                   TEXT PRIMARY KEY,
    intake_id            TEXT REFERENCES intakes(id),
    status               TEXT NOT NULL CHECK (status IN ('draft', 'completed')),
    assessment_date      TEXT,
    client_name          TEXT NOT NULL COLLATE NOCASE,
    coordinator_name     TEXT NOT NULL DEFAULT '',
    recommended_services TEXT NOT NULL DEFAULT '[]',
    recommended_hours    REAL,
    preferred_days       TEXT NOT NULL DEFAULT '[]',
    form_data            TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    completed_at         TEXT,
    deleted_at           TEXT,
    version              INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX assessments_intake ON assessments(intake_id, created_at);
CREATE INDEX assessments_recent ON assessments(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX assessments_status ON assessments(status, created_at, id) WHERE deleted_at IS NULL;

CREATE TABLE pricing_templates (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    base_rate          REAL NOT NULL,
    weekend_premium    REAL NOT NULL DEFAULT 0,
    evening_premium    REAL NOT NULL DEFAULT 0,
    overnight_premium  REAL NOT NULL DEFAULT 0,
    holiday_multiplier REAL NOT NULL DEFAULT 1.5,
    notes              TEXT,
    is_active          INTEGER NOT NULL DEFAULT 1,
    is_default         INTEGER NOT NULL DEFAULT 0,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    version            INTEGER NOT NULL DEFAULT 1
);
-- Only one default at a time.
CREATE UNIQUE INDEX pricing_templates_one_default ON pricing_templates(is_default) WHERE is_default = 1;

CREATE TABLE care_plan_proposals (
    id                      TEXT PRIMARY KEY,
    assessment_id           TEXT REFERENCES assessments(id),
    intake_id               TEXT REFERENCES intakes(id),
    status                  TEXT NOT NULL,
    client_name             TEXT NOT NULL COLLATE NOCASE,
    family_contact_name     TEXT NOT NULL DEFAULT '',
    family_contact_email    TEXT NOT NULL DEFAULT '',
    care_coordinator_name   TEXT NOT NULL DEFAULT '',
    services                TEXT NOT NULL DEFAULT '[]',
    additional_notes        TEXT NOT NULL DEFAULT '',
    schedule                TEXT NOT NULL DEFAULT '{}',
    proposed_start_date     TEXT,
    pricing_template_id     TEXT REFERENCES pricing_templates(id) ON DELETE SET NULL,
    hourly_rate             REAL NOT NULL,
    total_weekly_hours      REAL NOT NULL DEFAULT 0,
    weekly_cost             REAL NOT NULL DEFAULT 0,
    monthly_cost            REAL NOT NULL DEFAULT 0,
    marketing_email_content TEXT,
    sent_at                 TEXT,
    approved_at             TEXT,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL,
    deleted_at              TEXT,
    version                 INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX care_plans_assessment ON care_plan_proposals(assessment_id, created_at);
CREATE INDEX care_plans_intake ON care_plan_proposals(intake_id, created_at);
CREATE INDEX care_plans_recent ON care_plan_proposals(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX care_plans_status ON care_plan_proposals(status, created_at, id) WHERE deleted_at IS NULL;

CREATE TABLE contracts (
    id                    TEXT PRIMARY KEY,
    care_plan_proposal_id TEXT NOT NULL REFERENCES care_plan_proposals(id),
    intake_id             TEXT REFERENCES intakes(id),
    client_name           TEXT NOT NULL COLLATE NOCASE,
    family_contact_email  TEXT NOT NULL DEFAULT '',
    status                TEXT NOT NULL,
    contract_content      TEXT NOT NULL,
    pricing_details       TEXT NOT NULL DEFAULT '{}',
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    sent_at               TEXT,
    signed_at             TEXT,
    deleted_at            TEXT,
    version               INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX contracts_care_plan ON contracts(care_plan_proposal_id, created_at);
CREATE INDEX contracts_intake ON contracts(intake_id, created_at);
CREATE INDEX contracts_recent ON contracts(created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX contracts_status ON contracts(status, created_at) WHERE deleted_at IS NULL;
CREATE INDEX contracts_sent ON contracts(sent_at) WHERE deleted_at IS NULL;
CREATE INDEX contracts_signed ON contracts(signed_at) WHERE deleted_at IS NULL;

CREATE TABLE client_contacts (
    id           TEXT PRIMARY KEY,
    intake_id    TEXT NOT NULL REFERENCES intakes(id),
    contact_type TEXT NOT NULL DEFAULT 'family'
                 CHECK (contact_type IN ('primary', 'family', 'emergency', 'other')),
    full_name    TEXT NOT NULL,
    relationship TEXT,
    phone        TEXT,
    email        TEXT,
    address      TEXT,
    notes        TEXT,
    is_primary   INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    version      INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX client_contacts_intake ON client_contacts(intake_id, is_primary DESC, created_at);

CREATE TABLE communications (
    id                 TEXT PRIMARY KEY,
    intake_id          TEXT REFERENCES intakes(id),
    assessment_id      TEXT REFERENCES assessments(id),
    care_plan_id       TEXT REFERENCES care_plan_proposals(id),
    contract_id        TEXT REFERENCES contracts(id),
    communication_type TEXT NOT NULL
                       CHECK (communication_type IN ('email', 'sms', 'note', 'phone_log', 'system_event')),
    direction          TEXT NOT NULL CHECK (direction IN ('outbound', 'internal')),
    subject            TEXT,
    content            TEXT NOT NULL,
    recipient_email    TEXT,
    recipient_phone    TEXT,
    sender_user_id     TEXT REFERENCES users(id) ON DELETE SET NULL,
    status             TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'delivered', 'failed')),
    failure_reason     TEXT,
    attempts           INTEGER NOT NULL DEFAULT 0,
    sent_at            TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    visibility         TEXT NOT NULL CHECK (visibility IN ('internal', 'client')),
    tagged_user_ids    TEXT NOT NULL DEFAULT '[]',
    metadata           TEXT NOT NULL DEFAULT '{}',
    version            INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX communications_intake ON communications(intake_id, created_at);
CREATE INDEX communications_assessment ON communications(assessment_id, created_at) WHERE assessment_id IS NOT NULL;
CREATE INDEX communications_care_plan ON communications(care_plan_id, created_at) WHERE care_plan_id IS NOT NULL;
CREATE INDEX communications_contract ON communications(contract_id, created_at) WHERE contract_id IS NOT NULL;
CREATE INDEX communications_recent ON communications(created_at, id);
CREATE INDEX communications_type ON communications(communication_type, created_at, id);
CREATE INDEX communications_status ON communications(status, created_at, id);

CREATE TABLE message_templates (
    id                 TEXT PRIMARY KEY,
    name               TEXT NOT NULL,
    message_type       TEXT NOT NULL CHECK (message_type IN ('email', 'sms')),
    stage              TEXT NOT NULL CHECK (stage IN ('general', 'intake', 'assessment', 'care_plan', 'contract')),
    subject_template   TEXT,
    ai_prompt_template TEXT NOT NULL,
    is_active          INTEGER NOT NULL DEFAULT 1,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    version            INTEGER NOT NULL DEFAULT 1
);

-- Each saved contract template version is a row; exactly one is current.
CREATE TABLE contract_templates (
    id               TEXT PRIMARY KEY,
    template_version TEXT NOT NULL,
    name             TEXT NOT NULL,
    is_current       INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    version          INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX contract_templates_one_current ON contract_templates(is_current) WHERE is_current = 1;

CREATE TABLE contract_template_sections (
    template_id TEXT NOT NULL REFERENCES contract_templates(id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    section_id  TEXT NOT NULL,
    title       TEXT NOT NULL,
    content     TEXT NOT NULL,
    required    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (template_id, position)
) WITHOUT ROWID;

-- One JSON document per Settings tab.
CREATE TABLE settings (
    tab        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1
);

-- Who changed what, when, through which face: field names only, never client data.
-- Doubles as the change feed that live updates tail.
CREATE TABLE audit_log (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    at             TEXT NOT NULL,
    user_id        TEXT,
    channel        TEXT NOT NULL,
    action         TEXT NOT NULL,
    entity         TEXT NOT NULL,
    entity_id      TEXT NOT NULL,
    intake_id      TEXT,
    changed_fields TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX audit_log_entity ON audit_log(entity, entity_id);

-- Clients per stage, kept by triggers in the same transaction as the change, so the
-- dashboard and the clients page count without reading the intakes.
CREATE TABLE intake_counts (
    archived INTEGER NOT NULL,
    stage    TEXT NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (archived, stage)
) WITHOUT ROWID;
CREATE TRIGGER intake_counts_insert AFTER INSERT ON intakes WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO intake_counts (archived, stage, n) VALUES (new.archived, new.stage, 1)
    ON CONFLICT (archived, stage) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER intake_counts_delete AFTER DELETE ON intakes WHEN old.deleted_at IS NULL BEGIN
    UPDATE intake_counts SET n = n - 1 WHERE archived = old.archived AND stage = old.stage;
END;
CREATE TRIGGER intake_counts_update AFTER UPDATE OF stage, archived, deleted_at ON intakes BEGIN
    UPDATE intake_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND archived = old.archived AND stage = old.stage;
    INSERT INTO intake_counts (archived, stage, n)
    SELECT new.archived, new.stage, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (archived, stage) DO UPDATE SET n = n + 1;
END;
