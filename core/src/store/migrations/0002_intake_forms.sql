-- The intake form lives beside its intake, not in it. The intakes row keeps only what
-- lists, filters, search and the pipeline read, so list pages and exports read, and
-- pipeline moves rewrite, a few hundred bytes per client instead of the whole form.
CREATE TABLE intake_forms (
    intake_seq INTEGER PRIMARY KEY REFERENCES intakes(seq) ON DELETE CASCADE,
    form_data  TEXT NOT NULL
);
INSERT INTO intake_forms (intake_seq, form_data) SELECT seq, form_data FROM intakes;
ALTER TABLE intakes DROP COLUMN form_data;
