-- The search index's rowid now counts down: the newest client has the smallest key, so
-- the newest matches come first when the index is read forwards. SQLite's full-text
-- index reads a term's list backwards only after reading the whole list, and a piece
-- that almost every value holds (the "555" of a phone number) has a list as long as the
-- agency: a search for "555-17" spent most of its time there. Read forwards, a search
-- stops at its tenth match whatever the lists' lengths.
DROP TRIGGER intakes_search_insert;
DROP TRIGGER intakes_search_delete;
DROP TRIGGER intakes_search_update;
DROP TABLE intakes_search;
DROP INDEX intakes_search_key;
ALTER TABLE intakes DROP COLUMN search_key;

-- The creation moment in milliseconds, then the low bits of `seq` to tell apart clients
-- created in the same millisecond, negated.
ALTER TABLE intakes ADD COLUMN search_key INTEGER GENERATED ALWAYS AS (
    -(coalesce(CAST(strftime('%s', created_at) AS INTEGER) * 1000
               + CAST(substr(created_at, 21, 3) AS INTEGER), 0) * 2097152 + (seq & 2097151))
) VIRTUAL;
CREATE UNIQUE INDEX intakes_search_key ON intakes(search_key);

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
-- Filled in the keys' order: FTS5's 'rebuild' reads the intakes in table order, the
-- reverse of these keys, and the index writes out a segment whenever a key is not above
-- the one before. Then one segment instead of the several a build leaves: a search
-- opens a reader per piece of its term in every segment.
INSERT INTO intakes_search(rowid, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email)
    SELECT search_key, client_full_name, caller_name, caller_phone, caller_phone_digits, caller_email
    FROM intakes ORDER BY search_key;
INSERT INTO intakes_search(intakes_search) VALUES ('optimize');
