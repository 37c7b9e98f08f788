-- First run: the one-time setup link, and the outbound accounts Settings keep.

-- A setup link's token, kept only as its SHA-256 hash. Issued while the agency has no
-- user; used once, by the setup that creates the first administrator.
CREATE TABLE setup_tokens (
    token_hash TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    used_at TEXT
) STRICT;

-- The SMTP server and the SMS provider as an administrator entered them. `value` holds
-- everything but the secret (JSON); the password or auth token is sealed with the key
-- kept outside the database (`secret`: nonce then ciphertext). `tested_at`/`test_ok`
-- remember the last test message and whether the server took it.
CREATE TABLE outbound_accounts (
    channel TEXT PRIMARY KEY CHECK (channel IN ('email', 'sms')),
    value TEXT NOT NULL,
    secret BLOB,
    tested_at TEXT,
    test_ok INTEGER NOT NULL DEFAULT 0,
    test_answer TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
) STRICT;
