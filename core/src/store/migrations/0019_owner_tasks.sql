-- Carepath schema 19: every client has an owner (the coordinator whose work it is), and
-- each coordinator has a queue of what to do today: follow-ups, visits, replies not yet
-- read, proposals and contracts left unanswered, stage alerts and dated tasks. Every read
-- of the queue is a range of an index that starts with the owner, so it costs the same
-- however many clients the agency has.

-- The owner: a staff user's id, or nobody (an imported lead nobody took yet). A disabled
-- user keeps their clients until someone moves them; users are disabled, never deleted,
-- and core checks the user when it sets an owner, so the column names no foreign key.
ALTER TABLE intakes ADD COLUMN owner_id TEXT;
-- Clients stored before this schema belong to the user their coordinator name names.
UPDATE intakes SET owner_id = (
    SELECT u.id FROM users u WHERE u.full_name = intakes.assigned_coordinator
    ORDER BY u.disabled, u.created_at, u.id LIMIT 1
) WHERE assigned_coordinator IS NOT NULL;

-- When a reply from the family (an inbound communication of any channel) was read by
-- staff; NULL while nobody has. Outbound and internal rows are never unread.
ALTER TABLE communications ADD COLUMN read_at TEXT;
CREATE INDEX communications_unread ON communications(intake_id, created_at)
    WHERE direction = 'inbound' AND read_at IS NULL;

-- The oldest reply of a client nobody has read yet, kept by the triggers below from any
-- face or channel that stores inbound communications, so the owner's queue finds its
-- clients with unread replies on an index instead of walking their timelines.
ALTER TABLE intakes ADD COLUMN unread_since TEXT;
UPDATE intakes SET unread_since = (
    SELECT min(c.created_at) FROM communications c
    WHERE c.intake_id = intakes.id AND c.direction = 'inbound' AND c.read_at IS NULL
);
CREATE TRIGGER intakes_unread_insert AFTER INSERT ON communications
WHEN new.direction = 'inbound' AND new.read_at IS NULL AND new.intake_id IS NOT NULL BEGIN
    UPDATE intakes SET unread_since = new.created_at
    WHERE id = new.intake_id AND (unread_since IS NULL OR unread_since > new.created_at);
END;
CREATE TRIGGER intakes_unread_update AFTER UPDATE OF read_at, intake_id ON communications
WHEN new.direction = 'inbound' BEGIN
    UPDATE intakes SET unread_since = (
        SELECT min(c.created_at) FROM communications c
        WHERE c.intake_id = intakes.id AND c.direction = 'inbound' AND c.read_at IS NULL
    ) WHERE id IN (old.intake_id, new.intake_id);
END;
CREATE TRIGGER intakes_unread_delete AFTER DELETE ON communications
WHEN old.direction = 'inbound' AND old.read_at IS NULL BEGIN
    UPDATE intakes SET unread_since = (
        SELECT min(c.created_at) FROM communications c
        WHERE c.intake_id = intakes.id AND c.direction = 'inbound' AND c.read_at IS NULL
    ) WHERE id = old.intake_id;
END;

-- The clients list and its "Mine" / coordinator filter, newest first.
CREATE INDEX intakes_owner ON intakes(owner_id, created_at, list_seq) WHERE deleted_at IS NULL;
-- The queue's reads, one per kind of row, each in order of when it fell due.
CREATE INDEX intakes_owner_follow_up ON intakes(owner_id, next_follow_up_date, list_seq)
    WHERE deleted_at IS NULL AND archived = 0 AND next_follow_up_date IS NOT NULL;
CREATE INDEX intakes_owner_stage_alert ON intakes(owner_id, stage_alert_from, list_seq)
    WHERE deleted_at IS NULL AND archived = 0;
CREATE INDEX intakes_owner_unread ON intakes(owner_id, unread_since, list_seq)
    WHERE deleted_at IS NULL AND unread_since IS NOT NULL;
CREATE INDEX intakes_owner_proposal ON intakes(owner_id, latest_care_plan_at, list_seq)
    WHERE deleted_at IS NULL AND archived = 0 AND latest_care_plan_status = 'sent'
      AND latest_contract_id IS NULL;
CREATE INDEX intakes_owner_contract ON intakes(owner_id, latest_contract_at, list_seq)
    WHERE deleted_at IS NULL AND archived = 0 AND latest_contract_status = 'sent';
-- The overdue count of one owner's clients.
CREATE INDEX intakes_owner_overdue ON intakes(owner_id, archived, overdue_at)
    WHERE deleted_at IS NULL;

-- Clients per owner and stage, kept like `intake_counts`, so the clients list filtered
-- to one coordinator counts its cards without reading that coordinator's clients. An
-- unassigned client counts under ''.
CREATE TABLE owner_counts (
    owner_id TEXT NOT NULL,
    archived INTEGER NOT NULL,
    stage    TEXT NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (owner_id, archived, stage)
) WITHOUT ROWID;
INSERT INTO owner_counts (owner_id, archived, stage, n)
    SELECT coalesce(owner_id, ''), archived, stage, count(*) FROM intakes
    WHERE deleted_at IS NULL GROUP BY 1, 2, 3;
CREATE TRIGGER owner_counts_insert AFTER INSERT ON intakes WHEN new.deleted_at IS NULL BEGIN
    INSERT INTO owner_counts (owner_id, archived, stage, n)
    VALUES (coalesce(new.owner_id, ''), new.archived, new.stage, 1)
    ON CONFLICT (owner_id, archived, stage) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER owner_counts_delete AFTER DELETE ON intakes WHEN old.deleted_at IS NULL BEGIN
    UPDATE owner_counts SET n = n - 1
    WHERE owner_id = coalesce(old.owner_id, '') AND archived = old.archived AND stage = old.stage;
END;
CREATE TRIGGER owner_counts_update AFTER UPDATE OF owner_id, stage, archived, deleted_at ON intakes
WHEN old.owner_id IS NOT new.owner_id OR old.stage IS NOT new.stage
  OR old.archived IS NOT new.archived OR old.deleted_at IS NOT new.deleted_at BEGIN
    UPDATE owner_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND owner_id = coalesce(old.owner_id, '')
      AND archived = old.archived AND stage = old.stage;
    INSERT INTO owner_counts (owner_id, archived, stage, n)
    SELECT coalesce(new.owner_id, ''), new.archived, new.stage, 1 WHERE new.deleted_at IS NULL
    ON CONFLICT (owner_id, archived, stage) DO UPDATE SET n = n + 1;
END;

-- A dated task on a client for one member of staff ("call her daughter Thursday"): in
-- the assignee's queue from its day until it is done.
CREATE TABLE tasks (
    id          TEXT PRIMARY KEY,
    intake_id   TEXT NOT NULL REFERENCES intakes(id),
    assignee_id TEXT NOT NULL REFERENCES users(id),
    -- The agency's local day it is due, YYYY-MM-DD.
    due_date    TEXT NOT NULL,
    note        TEXT NOT NULL,
    created_by  TEXT REFERENCES users(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    done_at     TEXT,
    done_by     TEXT REFERENCES users(id),
    version     INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX tasks_open ON tasks(assignee_id, due_date, id) WHERE done_at IS NULL;
CREATE INDEX tasks_intake ON tasks(intake_id, due_date, id);

-- A queue row put off to a later day with a reason (a proposal the family asked to think
-- about until Monday). Follow-ups, tasks and visits move their own dates instead.
CREATE TABLE queue_snoozes (
    intake_id  TEXT NOT NULL REFERENCES intakes(id),
    kind       TEXT NOT NULL CHECK (kind IN ('reply', 'proposal', 'contract', 'stage_alert')),
    -- The first moment the row shows again.
    until      TEXT NOT NULL,
    reason     TEXT NOT NULL,
    created_by TEXT REFERENCES users(id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (intake_id, kind)
) WITHOUT ROWID;
