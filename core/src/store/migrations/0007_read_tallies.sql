-- Carepath schema 7: what the dashboard, the clients page and the search read stays the
-- same size however large the agency grows.

-- Records per status, kept by triggers in the same transaction as the change, so the
-- dashboard's cards count without walking the records. An archived client's records are
-- not active work, so they leave the counts while the client is archived.
CREATE TABLE record_counts (
    entity TEXT NOT NULL CHECK (entity IN ('assessment', 'care_plan', 'contract')),
    status TEXT NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (entity, status)
) WITHOUT ROWID;
INSERT INTO record_counts (entity, status, n)
    SELECT 'assessment', r.status, count(*) FROM assessments r
    WHERE r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)
    GROUP BY r.status;
INSERT INTO record_counts (entity, status, n)
    SELECT 'care_plan', r.status, count(*) FROM care_plan_proposals r
    WHERE r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)
    GROUP BY r.status;
INSERT INTO record_counts (entity, status, n)
    SELECT 'contract', r.status, count(*) FROM contracts r
    WHERE r.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes i WHERE i.id = r.intake_id AND i.archived = 1)
    GROUP BY r.status;

CREATE TRIGGER record_counts_assessment_insert AFTER INSERT ON assessments
WHEN new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = new.intake_id AND archived = 1) BEGIN
    INSERT INTO record_counts (entity, status, n) VALUES ('assessment', new.status, 1)
    ON CONFLICT (entity, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER record_counts_assessment_delete AFTER DELETE ON assessments
WHEN old.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = old.intake_id AND archived = 1) BEGIN
    UPDATE record_counts SET n = n - 1 WHERE entity = 'assessment' AND status = old.status;
END;
CREATE TRIGGER record_counts_assessment_update AFTER UPDATE OF status, deleted_at, intake_id ON assessments
WHEN old.status IS NOT new.status OR (old.deleted_at IS NULL) != (new.deleted_at IS NULL)
  OR old.intake_id IS NOT new.intake_id BEGIN
    UPDATE record_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND entity = 'assessment' AND status = old.status
      AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = old.intake_id AND archived = 1);
    INSERT INTO record_counts (entity, status, n)
    SELECT 'assessment', new.status, 1
    WHERE new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = new.intake_id AND archived = 1)
    ON CONFLICT (entity, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER record_counts_care_plan_insert AFTER INSERT ON care_plan_proposals
WHEN new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = new.intake_id AND archived = 1) BEGIN
    INSERT INTO record_counts (entity, status, n) VALUES ('care_plan', new.status, 1)
    ON CONFLICT (entity, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER record_counts_care_plan_delete AFTER DELETE ON care_plan_proposals
WHEN old.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = old.intake_id AND archived = 1) BEGIN
    UPDATE record_counts SET n = n - 1 WHERE entity = 'care_plan' AND status = old.status;
END;
CREATE TRIGGER record_counts_care_plan_update AFTER UPDATE OF status, deleted_at, intake_id ON care_plan_proposals
WHEN old.status IS NOT new.status OR (old.deleted_at IS NULL) != (new.deleted_at IS NULL)
  OR old.intake_id IS NOT new.intake_id BEGIN
    UPDATE record_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND entity = 'care_plan' AND status = old.status
      AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = old.intake_id AND archived = 1);
    INSERT INTO record_counts (entity, status, n)
    SELECT 'care_plan', new.status, 1
    WHERE new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = new.intake_id AND archived = 1)
    ON CONFLICT (entity, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER record_counts_contract_insert AFTER INSERT ON contracts
WHEN new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = new.intake_id AND archived = 1) BEGIN
    INSERT INTO record_counts (entity, status, n) VALUES ('contract', new.status, 1)
    ON CONFLICT (entity, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER record_counts_contract_delete AFTER DELETE ON contracts
WHEN old.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = old.intake_id AND archived = 1) BEGIN
    UPDATE record_counts SET n = n - 1 WHERE entity = 'contract' AND status = old.status;
END;
CREATE TRIGGER record_counts_contract_update AFTER UPDATE OF status, deleted_at, intake_id ON contracts
WHEN old.status IS NOT new.status OR (old.deleted_at IS NULL) != (new.deleted_at IS NULL)
  OR old.intake_id IS NOT new.intake_id BEGIN
    UPDATE record_counts SET n = n - 1
    WHERE old.deleted_at IS NULL AND entity = 'contract' AND status = old.status
      AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = old.intake_id AND archived = 1);
    INSERT INTO record_counts (entity, status, n)
    SELECT 'contract', new.status, 1
    WHERE new.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM intakes WHERE id = new.intake_id AND archived = 1)
    ON CONFLICT (entity, status) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER record_counts_intake_archived AFTER UPDATE OF archived ON intakes
WHEN old.archived IS NOT new.archived BEGIN
    INSERT INTO record_counts (entity, status, n)
    SELECT 'assessment', status, 0 FROM assessments WHERE intake_id = new.id AND deleted_at IS NULL GROUP BY status
    ON CONFLICT (entity, status) DO NOTHING;
    UPDATE record_counts
    SET n = n + (CASE WHEN new.archived = 1 THEN -1 ELSE 1 END) * (SELECT count(*) FROM assessments r
        WHERE r.intake_id = new.id AND r.deleted_at IS NULL AND r.status = record_counts.status)
    WHERE entity = 'assessment';
    INSERT INTO record_counts (entity, status, n)
    SELECT 'care_plan', status, 0 FROM care_plan_proposals WHERE intake_id = new.id AND deleted_at IS NULL GROUP BY status
    ON CONFLICT (entity, status) DO NOTHING;
    UPDATE record_counts
    SET n = n + (CASE WHEN new.archived = 1 THEN -1 ELSE 1 END) * (SELECT count(*) FROM care_plan_proposals r
        WHERE r.intake_id = new.id AND r.deleted_at IS NULL AND r.status = record_counts.status)
    WHERE entity = 'care_plan';
    INSERT INTO record_counts (entity, status, n)
    SELECT 'contract', status, 0 FROM contracts WHERE intake_id = new.id AND deleted_at IS NULL GROUP BY status
    ON CONFLICT (entity, status) DO NOTHING;
    UPDATE record_counts
    SET n = n + (CASE WHEN new.archived = 1 THEN -1 ELSE 1 END) * (SELECT count(*) FROM contracts r
        WHERE r.intake_id = new.id AND r.deleted_at IS NULL AND r.status = record_counts.status)
    WHERE entity = 'contract';
END;

-- Clients past a moving moment, settled up to a moment: `n` active (not archived, not
-- deleted) clients have their `name` column (overdue_at: overdue; stage_entered_at: in
-- their stage since) before `through`. Triggers keep `n` exact as rows change; a read
-- adds (or takes away) the clients whose moment lies between `through` and the moment
-- asked about, and moves `through` forward when that stretch has grown, so a count never
-- walks more than a few hundred index entries whatever the agency's size. An empty
-- `through` has settled nothing.
CREATE TABLE moment_tallies (
    name    TEXT PRIMARY KEY CHECK (name IN ('overdue_at', 'stage_entered_at')),
    through TEXT NOT NULL,
    n       INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO moment_tallies (name, through, n) VALUES ('overdue_at', '', 0), ('stage_entered_at', '', 0);
CREATE TRIGGER moment_tallies_insert AFTER INSERT ON intakes
WHEN new.deleted_at IS NULL AND new.archived = 0 BEGIN
    UPDATE moment_tallies SET n = n + 1
    WHERE (CASE name WHEN 'overdue_at' THEN new.overdue_at ELSE new.stage_entered_at END) < through;
END;
CREATE TRIGGER moment_tallies_delete AFTER DELETE ON intakes
WHEN old.deleted_at IS NULL AND old.archived = 0 BEGIN
    UPDATE moment_tallies SET n = n - 1
    WHERE (CASE name WHEN 'overdue_at' THEN old.overdue_at ELSE old.stage_entered_at END) < through;
END;
CREATE TRIGGER moment_tallies_update AFTER UPDATE OF overdue_at, stage_entered_at, archived, deleted_at ON intakes BEGIN
    UPDATE moment_tallies
    SET n = n - (old.deleted_at IS NULL AND old.archived = 0
                 AND (CASE name WHEN 'overdue_at' THEN old.overdue_at ELSE old.stage_entered_at END) < through)
              + (new.deleted_at IS NULL AND new.archived = 0
                 AND (CASE name WHEN 'overdue_at' THEN new.overdue_at ELSE new.stage_entered_at END) < through)
    WHERE (old.deleted_at IS NULL AND old.archived = 0
           AND (CASE name WHEN 'overdue_at' THEN old.overdue_at ELSE old.stage_entered_at END) < through)
       != (new.deleted_at IS NULL AND new.archived = 0
           AND (CASE name WHEN 'overdue_at' THEN new.overdue_at ELSE new.stage_entered_at END) < through);
END;

-- Follow-ups of active clients per UTC hour of their date, so "due today" counts the
-- day's hours instead of the day's rows (the agency's day is 23 to 25 of them; the
-- partial hours at its ends are counted on the index).
CREATE TABLE follow_up_hours (
    hour TEXT PRIMARY KEY,
    n    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO follow_up_hours (hour, n)
    SELECT substr(next_follow_up_date, 1, 13), count(*) FROM intakes
    WHERE deleted_at IS NULL AND archived = 0 AND next_follow_up_date IS NOT NULL GROUP BY 1;
CREATE TRIGGER follow_up_hours_insert AFTER INSERT ON intakes
WHEN new.deleted_at IS NULL AND new.archived = 0 AND new.next_follow_up_date IS NOT NULL BEGIN
    INSERT INTO follow_up_hours (hour, n) VALUES (substr(new.next_follow_up_date, 1, 13), 1)
    ON CONFLICT (hour) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER follow_up_hours_delete AFTER DELETE ON intakes
WHEN old.deleted_at IS NULL AND old.archived = 0 AND old.next_follow_up_date IS NOT NULL BEGIN
    UPDATE follow_up_hours SET n = n - 1 WHERE hour = substr(old.next_follow_up_date, 1, 13);
END;
CREATE TRIGGER follow_up_hours_update AFTER UPDATE OF next_follow_up_date, deleted_at, archived ON intakes
WHEN old.next_follow_up_date IS NOT new.next_follow_up_date
  OR (old.deleted_at IS NULL AND old.archived = 0) != (new.deleted_at IS NULL AND new.archived = 0) BEGIN
    UPDATE follow_up_hours SET n = n - 1
    WHERE old.deleted_at IS NULL AND old.archived = 0 AND hour = substr(old.next_follow_up_date, 1, 13);
    INSERT INTO follow_up_hours (hour, n)
    SELECT substr(new.next_follow_up_date, 1, 13), 1
    WHERE new.deleted_at IS NULL AND new.archived = 0 AND new.next_follow_up_date IS NOT NULL
    ON CONFLICT (hour) DO UPDATE SET n = n + 1;
END;

-- Follow-ups due today of active clients page in (date, id) order along the index, so a
-- page reads its own rows only; `archived` leads so the planner never prefers another
-- index that starts with it. The name stays: the bulk load defers indexes by name.
DROP INDEX intakes_follow_up;
CREATE INDEX intakes_follow_up ON intakes(archived, next_follow_up_date, id) WHERE deleted_at IS NULL;

-- The search index's rowid is the client's place in newest-first order: the creation
-- moment in milliseconds, then the low bits of `seq` to tell apart clients created in
-- the same millisecond. Walking it backwards finds the newest matches first, so a search
-- stops at its tenth match instead of sorting all of them.
ALTER TABLE intakes ADD COLUMN search_key INTEGER GENERATED ALWAYS AS (
    coalesce(CAST(strftime('%s', created_at) AS INTEGER) * 1000
             + CAST(substr(created_at, 21, 3) AS INTEGER), 0) * 2097152 + (seq & 2097151)
) VIRTUAL;
CREATE UNIQUE INDEX intakes_search_key ON intakes(search_key);

-- The search index splits text into every 2- and 3-character piece (the carepath_ngram
-- tokenizer core registers on each connection), so 2-character terms match anywhere in
-- a value too ("ll" finds "Ellen"), not only at its start.
DROP TRIGGER intakes_search_insert;
DROP TRIGGER intakes_search_delete;
DROP TRIGGER intakes_search_update;
DROP TABLE intakes_search;
CREATE VIRTUAL TABLE intakes_search USING fts5(
    client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email,
    content = 'intakes', content_rowid = 'search_key', tokenize = 'carepath_ngram'
);
CREATE TRIGGER intakes_search_insert AFTER INSERT ON intakes BEGIN
    INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES (new.search_key, new.client_full_name, new.caller_name, new.caller_phone, new.caller_phone_digits, new.caller_email);
END;
CREATE TRIGGER intakes_search_delete AFTER DELETE ON intakes BEGIN
    INSERT INTO intakes_search(intakes_search, rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES ('delete', old.search_key, old.client_full_name, old.caller_name, old.caller_phone, old.caller_phone_digits, old.caller_email);
END;
CREATE TRIGGER intakes_search_update AFTER UPDATE OF client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email ON intakes BEGIN
    INSERT INTO intakes_search(intakes_search, rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES ('delete', old.search_key, old.client_full_name, old.caller_name, old.caller_phone, old.caller_phone_digits, old.caller_email);
    INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    VALUES (new.search_key, new.client_full_name, new.caller_name, new.caller_phone, new.caller_phone_digits, new.caller_email);
END;
INSERT INTO intakes_search(intakes_search) VALUES ('rebuild');
