-- Carepath schema 24: the analytics index holds each moment as Unix seconds and each
-- client's referral source as the report names it. Schema 23's index kept the text
-- timestamps, and every report turned seven of them per client into seconds: at 100,000
-- clients a 90-day report parsed about 600,000 timestamps, a fifth of its time. The
-- report's query names these same expressions, so SQLite reads their values from the
-- index instead of working them out. The waiting list's "no first contact yet" is
-- `unixepoch(first_contact_at) IS NULL` for the same reason: Carepath writes only valid
-- timestamps, so it is NULL exactly when the moment is.
DROP INDEX intakes_cohort;
CREATE INDEX intakes_cohort ON intakes(
    created_at, list_seq, archived,
    coalesce(nullif(trim(referral_source), ''), 'Not recorded'),
    status, latest_assessment_status, latest_care_plan_status, latest_contract_status,
    unixepoch(created_at), unixepoch(first_assessment_at), first_care_plan_at IS NOT NULL,
    unixepoch(first_proposal_sent_at), first_contract_at IS NOT NULL,
    unixepoch(first_signed_at), unixepoch(first_contact_at)
) WHERE deleted_at IS NULL;
