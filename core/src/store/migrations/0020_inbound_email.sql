-- Families' emailed replies: the agency's reply-to mailbox is read over IMAP and each
-- message is kept as an inbound communication, on its client's timeline or, from an
-- unknown sender, in the Unmatched list until an administrator assigns it.

-- Whether staff opened an inbound reply is `communications.read_at` (migration 19).
-- Replies nobody could place yet: the Unmatched list.
CREATE INDEX communications_unmatched ON communications(created_at, id)
    WHERE direction = 'inbound' AND intake_id IS NULL;
-- A message fetched twice, or delivered to the mailbox twice, is kept once.
CREATE UNIQUE INDEX communications_email_message
    ON communications(json_extract(metadata, '$.messageId'))
    WHERE direction = 'inbound' AND communication_type = 'email';
-- A reply names the email it answers by the Message-ID Carepath gave it (`email_id`).
CREATE INDEX communications_sent_email
    ON communications(json_extract(metadata, '$.email_id'))
    WHERE direction = 'outbound' AND communication_type = 'email';
-- A sender is looked up among the clients' contacts too.
CREATE INDEX client_contacts_email ON client_contacts(email COLLATE NOCASE)
    WHERE email IS NOT NULL AND email <> '';

-- The files an emailed reply carried, within the limits of an email's attachments
-- (type and size); a file past them is named in the communication, not kept.
CREATE TABLE communication_attachments (
    id               TEXT PRIMARY KEY,
    communication_id TEXT NOT NULL REFERENCES communications(id),
    name             TEXT NOT NULL,
    content_type     TEXT NOT NULL,
    size             INTEGER NOT NULL,
    bytes            BLOB NOT NULL,
    created_at       TEXT NOT NULL
) STRICT;
CREATE INDEX communication_attachments_of ON communication_attachments(communication_id);

-- The mailbox Settings → Email reads replies from (one row). `value` holds everything
-- but the secret (JSON); the password or OAuth2 access token is sealed with the key kept
-- outside the database, as the SMTP password is. `uid_validity` and `last_uid` say how
-- far the mailbox was read, so a restart fetches only what is new; `checked_at`,
-- `check_ok` and `check_answer` remember the last fetch and what went wrong, in words.
CREATE TABLE inbound_mailbox (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    value        TEXT NOT NULL,
    secret       BLOB,
    uid_validity INTEGER,
    last_uid     INTEGER NOT NULL DEFAULT 0,
    checked_at   TEXT,
    check_ok     INTEGER NOT NULL DEFAULT 0,
    check_answer TEXT NOT NULL DEFAULT '',
    updated_at   TEXT NOT NULL,
    version      INTEGER NOT NULL DEFAULT 1
) STRICT;
