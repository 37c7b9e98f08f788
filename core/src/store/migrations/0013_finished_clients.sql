-- Carepath schema 13: a client whose contract is signed (an Active Patient) has finished
-- the pipeline. It is never overdue, never in the stage alert and in no urgency list
-- (blueprint difference 15).

-- Its overdue moment is never: the latest moment a stored time can name (the rule's
-- `NEVER_OVERDUE`). Rows stored before this schema are recomputed here; every later
-- change of position writes it through the rule.
UPDATE intakes SET overdue_at = '9999-12-30T22:00:00.999Z'
WHERE latest_contract_status = 'signed';

-- When the stage alert's clock started: the stage-entered moment of a client still in
-- the pipeline, never for one that cannot be overdue. Derived from the stored overdue
-- moment, so the rule that decides it stays in one place.
ALTER TABLE intakes ADD COLUMN stage_alert_from TEXT GENERATED ALWAYS AS (
    CASE WHEN overdue_at = '9999-12-30T22:00:00.999Z' THEN overdue_at ELSE stage_entered_at END
) VIRTUAL;
-- The dashboard's stage alerts and their count read this range, so finished clients
-- (the oldest stage-entered moments of all) are not walked past on every visit.
CREATE INDEX intakes_stage_alert ON intakes(archived, stage_alert_from, list_seq)
WHERE deleted_at IS NULL;

-- The stage alert's tally counts that column instead of the stage-entered moment.
DROP TRIGGER moment_tallies_insert;
DROP TRIGGER moment_tallies_delete;
DROP TRIGGER moment_tallies_update;
DROP TABLE moment_tallies;
CREATE TABLE moment_tallies (
    name    TEXT PRIMARY KEY CHECK (name IN ('overdue_at', 'stage_alert_from')),
    through TEXT NOT NULL,
    n       INTEGER NOT NULL
) WITHOUT ROWID;
-- Settled at nothing: the next count settles each again.
INSERT INTO moment_tallies (name, through, n) VALUES ('overdue_at', '', 0), ('stage_alert_from', '', 0);
CREATE TRIGGER moment_tallies_insert AFTER INSERT ON intakes
WHEN new.deleted_at IS NULL AND new.archived = 0 BEGIN
    UPDATE moment_tallies SET n = n + 1
    WHERE (CASE name WHEN 'overdue_at' THEN new.overdue_at ELSE new.stage_alert_from END) < through;
END;
CREATE TRIGGER moment_tallies_delete AFTER DELETE ON intakes
WHEN old.deleted_at IS NULL AND old.archived = 0 BEGIN
    UPDATE moment_tallies SET n = n - 1
    WHERE (CASE name WHEN 'overdue_at' THEN old.overdue_at ELSE old.stage_alert_from END) < through;
END;
-- stage_alert_from follows overdue_at and stage_entered_at, so those columns fire it.
CREATE TRIGGER moment_tallies_update AFTER UPDATE OF overdue_at, stage_entered_at, archived, deleted_at ON intakes BEGIN
    UPDATE moment_tallies
    SET n = n - (old.deleted_at IS NULL AND old.archived = 0
                 AND (CASE name WHEN 'overdue_at' THEN old.overdue_at ELSE old.stage_alert_from END) < through)
              + (new.deleted_at IS NULL AND new.archived = 0
                 AND (CASE name WHEN 'overdue_at' THEN new.overdue_at ELSE new.stage_alert_from END) < through)
    WHERE (old.deleted_at IS NULL AND old.archived = 0
           AND (CASE name WHEN 'overdue_at' THEN old.overdue_at ELSE old.stage_alert_from END) < through)
       != (new.deleted_at IS NULL AND new.archived = 0
           AND (CASE name WHEN 'overdue_at' THEN new.overdue_at ELSE new.stage_alert_from END) < through);
END;
