-- Sessions a user can see and end one by one: a public id that is not the token's hash,
-- and the device (User-Agent) and address the session was opened from.
ALTER TABLE sessions ADD COLUMN id TEXT;
ALTER TABLE sessions ADD COLUMN user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN address TEXT NOT NULL DEFAULT '';
UPDATE sessions SET id = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX sessions_id ON sessions(id);

-- A staff member's authenticator app (TOTP, RFC 6238). The secret is base32 and is
-- never answered again once enrolment starts; `confirmed_at` is NULL until a first
-- code proved the app has it. `last_step` is the time step of the last code accepted,
-- so the same code (or an older one) is never accepted twice.
CREATE TABLE totp_factors (
    user_id      TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    secret       TEXT NOT NULL,
    confirmed_at TEXT,
    last_step    INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL
);

-- Ten single-use recovery codes per user, kept only as SHA-256 hashes (they are random,
-- 50 bits and more, so a slow hash adds nothing).
CREATE TABLE recovery_codes (
    user_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at   TEXT,
    PRIMARY KEY (user_id, code_hash)
) WITHOUT ROWID;

-- A password accepted, the second factor awaited: not a session. Its token (hash only)
-- is in a short-lived cookie; a few wrong codes end it.
CREATE TABLE pending_sign_ins (
    token_hash TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client     TEXT NOT NULL,
    failures   INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX pending_sign_ins_user ON pending_sign_ins(user_id);
