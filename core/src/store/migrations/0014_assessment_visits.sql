-- An assessment visit is a record of its own: when (UTC, entered as the agency's local
-- date and time), how long, where, and which staff user assesses. `sequence` counts the
-- changes a calendar invitation must announce (RFC 5545 SEQUENCE); `version` is the
-- usual stale-write guard.
CREATE TABLE assessment_visits (
    id               TEXT PRIMARY KEY,
    intake_id        TEXT NOT NULL REFERENCES intakes(id),
    starts_at        TEXT NOT NULL,
    ends_at          TEXT NOT NULL,
    duration_minutes INTEGER NOT NULL CHECK (duration_minutes BETWEEN 15 AND 480),
    place            TEXT NOT NULL,
    assessor_id      TEXT NOT NULL REFERENCES users(id),
    notes            TEXT,
    status           TEXT NOT NULL DEFAULT 'scheduled'
                     CHECK (status IN ('scheduled', 'cancelled', 'done')),
    cancel_reason    TEXT,
    version          INTEGER NOT NULL DEFAULT 1,
    sequence         INTEGER NOT NULL DEFAULT 0,
    created_by       TEXT REFERENCES users(id),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

-- The calendar views and the double-booking check: one assessor's visits in a range.
CREATE INDEX assessment_visits_by_assessor ON assessment_visits (assessor_id, starts_at);
-- Everyone's visits in a range (the day and week views, "Today's visits").
CREATE INDEX assessment_visits_by_time ON assessment_visits (starts_at, id);
-- A client's visits.
CREATE INDEX assessment_visits_by_intake ON assessment_visits (intake_id, starts_at);

-- A member of staff's private calendar feed: their visits as an iCalendar document at a
-- secret address. Only the token's hash is kept; a new token replaces the old one, and
-- deleting the row revokes it.
CREATE TABLE calendar_feeds (
    user_id    TEXT PRIMARY KEY REFERENCES users(id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
