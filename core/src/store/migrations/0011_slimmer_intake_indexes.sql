-- Fewer bytes per client, for the same reads.
--
-- The list indexes broke ties on the 36-character id. They now break them on the row
-- number: `list_seq` is `seq` as an ordinary column, since SQLite ranges over an index's
-- (key, column) pairs but not over (key, rowid), and a page after a cursor must start
-- inside a run of equal keys (every lead of one import shares its creation moment)
-- without walking it. A tenth of the file for 100,000 clients, written by every import
-- and read by every page; a page's cursor still names its row by id.
ALTER TABLE intakes ADD COLUMN list_seq INTEGER GENERATED ALWAYS AS (seq) VIRTUAL;
DROP INDEX intakes_recent;
DROP INDEX intakes_stage;
DROP INDEX intakes_stage_overdue;
DROP INDEX intakes_stage_entered;
DROP INDEX intakes_entered;
DROP INDEX intakes_stage_name;
DROP INDEX intakes_name;
DROP INDEX intakes_overdue;
DROP INDEX intakes_follow_up;
CREATE INDEX intakes_recent ON intakes(created_at, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage ON intakes(archived, stage, created_at, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage_overdue ON intakes(archived, stage, overdue_at, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage_entered ON intakes(archived, stage, stage_entered_at, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_entered ON intakes(archived, stage_entered_at, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_stage_name ON intakes(archived, stage, client_full_name, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_name ON intakes(client_full_name, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_overdue ON intakes(archived, overdue_at, list_seq) WHERE deleted_at IS NULL;
CREATE INDEX intakes_follow_up ON intakes(archived, next_follow_up_date, list_seq) WHERE deleted_at IS NULL;

-- Nothing looks a client up by the caller's email (duplicates are found in memory, replies
-- by phone), so that index only cost every write.
DROP INDEX intakes_caller_email;

-- The search index is built again with the tokenizer's new pieces: 2-character pieces
-- only, a longer term being the phrase of its pieces (see the tokenizer). That halves the
-- pieces each client writes. The index also kept each value's length in pieces, for
-- ranking by relevance; searches order by newest first, so that table was written for
-- every client and never read.
DROP TABLE intakes_search;
CREATE VIRTUAL TABLE intakes_search USING fts5(
    client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email,
    content = 'intakes', content_rowid = 'search_key', tokenize = 'carepath_ngram',
    columnsize = 0
);
INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    SELECT search_key, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email
    FROM intakes ORDER BY search_key;
INSERT INTO intakes_search(intakes_search) VALUES ('optimize');
