-- Passkeys (WebAuthn): a staff member's second factor, beside or instead of an
-- authenticator app. `passkey` is the webauthn-rs record as JSON: the credential's id and
-- public key, its signature counter and backup flags; nothing in it signs anybody in.
-- `credential_id` is unique across all users, so one authenticator's credential can
-- never be added to two accounts.
CREATE TABLE passkeys (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    credential_id BLOB NOT NULL UNIQUE,
    passkey       TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_used_at  TEXT
);
CREATE INDEX passkeys_user ON passkeys(user_id);

-- Adding a passkey takes two requests: the challenge the browser signs, then its answer.
-- Between them the ceremony's state waits here, one per user, for a few minutes.
CREATE TABLE passkey_registrations (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    state      TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- The code step of a sign-in with a passkey: the challenge's state, used once.
ALTER TABLE pending_sign_ins ADD COLUMN passkey_state TEXT;

-- The authenticator app's secret sealed with the key outside the database (as the SMTP
-- password is). The key is not at hand here, so existing secrets are sealed by the
-- server when it starts; until then, and only then, `secret` holds one in plain text.
-- A sealed row keeps '' in `secret`.
ALTER TABLE totp_factors ADD COLUMN sealed_secret BLOB;
