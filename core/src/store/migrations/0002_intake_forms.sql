-- The intake form lives beside its intake, not in it. The intakes row keeps only what
-- lists, filters, search, exports and the pipeline read, so list pages and exports
-- read, and pipeline moves rewrite, a few hundred bytes per client instead of the
-- whole form.
CREATE TABLE intake_forms (
    intake_seq INTEGER PRIMARY KEY REFERENCES intakes(seq) ON DELETE CASCADE,
    form_data  TEXT NOT NULL
);
INSERT INTO intake_forms (intake_seq, form_data) SELECT seq, form_data FROM intakes;

-- The form fields the intakes export has beyond the listed ones, typed, so an export
-- reads the intakes row alone.
ALTER TABLE intakes ADD COLUMN intake_date TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN staff_member_taking_call TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN relationship_to_client TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN how_did_you_hear TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN client_address TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN city TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN state TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN zip_code TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN client_phone TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN client_email TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN total_hours_per_week REAL;
ALTER TABLE intakes ADD COLUMN anticipated_start_date TEXT NOT NULL DEFAULT '';
ALTER TABLE intakes ADD COLUMN source_of_payment TEXT NOT NULL DEFAULT '[]';
UPDATE intakes SET
    intake_date = coalesce(json_extract(form_data, '$.date'), ''),
    staff_member_taking_call = coalesce(json_extract(form_data, '$.staffMemberTakingCall'), ''),
    relationship_to_client = coalesce(json_extract(form_data, '$.relationshipToClient'), ''),
    how_did_you_hear = coalesce(json_extract(form_data, '$.howDidYouHear'), ''),
    client_address = coalesce(json_extract(form_data, '$.clientAddress'), ''),
    city = coalesce(json_extract(form_data, '$.city'), ''),
    state = coalesce(json_extract(form_data, '$.state'), ''),
    zip_code = coalesce(json_extract(form_data, '$.zipCode'), ''),
    client_phone = coalesce(json_extract(form_data, '$.clientPhone'), ''),
    client_email = coalesce(json_extract(form_data, '$.clientEmail'), ''),
    total_hours_per_week = json_extract(form_data, '$.totalHoursPerWeek'),
    anticipated_start_date = coalesce(json_extract(form_data, '$.anticipatedStartDate'), ''),
    source_of_payment = coalesce(json_extract(form_data, '$.sourceOfPayment'), '[]');

ALTER TABLE intakes DROP COLUMN form_data;
