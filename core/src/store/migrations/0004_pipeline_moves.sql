-- When a care plan was last saved by staff (created or updated), apart from the sends,
-- approvals and emails that also touch updated_at: Update Mode compares its
-- assessment's updated_at with it.
ALTER TABLE care_plan_proposals ADD COLUMN saved_at TEXT;
UPDATE care_plan_proposals SET saved_at = updated_at;

-- A lead marked declined or not interested keeps why, when, and the status to go back
-- to when it is reopened.
ALTER TABLE intakes ADD COLUMN archive_reason TEXT;
ALTER TABLE intakes ADD COLUMN archived_at TEXT;
ALTER TABLE intakes ADD COLUMN status_before_archive TEXT;
