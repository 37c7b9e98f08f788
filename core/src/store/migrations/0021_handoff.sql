-- Carepath schema 21: the hand-off to care. A contract keeps the terms it was written
-- for (the care plan's schedule, hours, services and start date at the moment it was
-- made, beside its pricing), so what the scheduling system receives is what the family
-- signed, whatever later becomes of the care plan. A client whose contract is signed
-- gets a start-of-care checklist, its items copied from Settings at that moment.

-- JSON: {"schedule": {...}, "services": [...], "total_weekly_hours": n,
-- "proposed_start_date": "YYYY-MM-DD" or null}. A contract made before this schema
-- takes its care plan as it is now, the closest record of its terms there is.
ALTER TABLE contracts ADD COLUMN terms TEXT;
UPDATE contracts SET terms = (
    SELECT json_object(
        'schedule', json(p.schedule),
        'services', json(p.services),
        'total_weekly_hours', p.total_weekly_hours,
        'proposed_start_date', p.proposed_start_date)
    FROM care_plan_proposals p WHERE p.id = contracts.care_plan_proposal_id
);

-- One row per item of a signed client's checklist; `done_by` and `done_at` say who
-- ticked it and when (NULL while it is not done).
CREATE TABLE start_of_care_items (
    id          TEXT PRIMARY KEY,
    intake_id   TEXT NOT NULL REFERENCES intakes(id),
    contract_id TEXT NOT NULL REFERENCES contracts(id),
    position    INTEGER NOT NULL,
    label       TEXT NOT NULL,
    done_at     TEXT,
    done_by     TEXT REFERENCES users(id),
    created_at  TEXT NOT NULL,
    version     INTEGER NOT NULL DEFAULT 1,
    UNIQUE (contract_id, position)
);
CREATE INDEX start_of_care_items_intake ON start_of_care_items(intake_id, contract_id);

-- Clients signed before this schema get the default checklist.
INSERT INTO start_of_care_items (id, intake_id, contract_id, position, label, created_at)
SELECT lower(hex(randomblob(16))), c.intake_id, c.id, d.position, d.label, c.signed_at
FROM contracts c
JOIN (SELECT 0 AS position, 'Caregiver matched' AS label
      UNION ALL SELECT 1, 'Schedule set'
      UNION ALL SELECT 2, 'First visit'
      UNION ALL SELECT 3, 'First invoice') d
WHERE c.status = 'signed' AND c.intake_id IS NOT NULL AND c.signed_at IS NOT NULL;
