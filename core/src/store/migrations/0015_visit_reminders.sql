-- The reminders an assessment visit sends: the family's the day before, and each
-- assessor's summary of their day. One row per reminder, written (claimed) in the same
-- transaction that decides it is due and before anything is sent, so two processes, a
-- restart or a second `carepath remind` never send it twice.
--
-- `subject` is the visit (family) or the assessor (summary); `slot` is the visit's start
-- (UTC; a visit moved to another time gets a fresh reminder) or the summary's local day.
CREATE TABLE visit_reminders (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('family', 'assessor_summary')),
    subject          TEXT NOT NULL,
    slot             TEXT NOT NULL,
    due_at           TEXT NOT NULL,
    status           TEXT NOT NULL
                     CHECK (status IN ('claimed', 'sent', 'failed', 'skipped')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    channel          TEXT CHECK (channel IN ('sms', 'email')),
    recipient        TEXT,
    communication_id TEXT REFERENCES communications(id),
    failure_reason   TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (kind, subject, slot)
);

-- Failed reminders the scheduler tries again.
CREATE INDEX visit_reminders_failed ON visit_reminders (status, due_at)
    WHERE status = 'failed';
