-- Replies from families: a text message a family sends back arrives through the SMS
-- provider's webhook and is kept as an inbound communication. SQLite cannot widen a
-- CHECK constraint, so the table is rebuilt with 'inbound' allowed; nothing refers to
-- communications, and its indexes are made again below.
CREATE TABLE communications_new (
    id                 TEXT PRIMARY KEY,
    intake_id          TEXT REFERENCES intakes(id),
    assessment_id      TEXT REFERENCES assessments(id),
    care_plan_id       TEXT REFERENCES care_plan_proposals(id),
    contract_id        TEXT REFERENCES contracts(id),
    communication_type TEXT NOT NULL
                       CHECK (communication_type IN ('email', 'sms', 'note', 'phone_log', 'system_event')),
    direction          TEXT NOT NULL CHECK (direction IN ('outbound', 'internal', 'inbound')),
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
INSERT INTO communications_new SELECT * FROM communications;
DROP TABLE communications;
ALTER TABLE communications_new RENAME TO communications;
CREATE INDEX communications_intake ON communications(intake_id, created_at);
CREATE INDEX communications_assessment ON communications(assessment_id, created_at) WHERE assessment_id IS NOT NULL;
CREATE INDEX communications_care_plan ON communications(care_plan_id, created_at) WHERE care_plan_id IS NOT NULL;
CREATE INDEX communications_contract ON communications(contract_id, created_at) WHERE contract_id IS NOT NULL;
CREATE INDEX communications_recent ON communications(created_at, id);
CREATE INDEX communications_type ON communications(communication_type, created_at, id);
CREATE INDEX communications_status ON communications(status, created_at, id);
-- The provider may post the same reply twice (it retries until it hears back).
CREATE UNIQUE INDEX communications_provider_message
    ON communications(json_extract(metadata, '$.messageSid'))
    WHERE direction = 'inbound';

-- A member of staff's mobile number, for Settings → Notifications' texts on urgent
-- updates. Empty: they get none.
ALTER TABLE users ADD COLUMN phone TEXT NOT NULL DEFAULT '';
