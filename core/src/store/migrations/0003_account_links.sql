-- Invitations carry a secret link: sign-up needs its token, not only the invited
-- address, and the link expires. Invitations made before this have no token and must
-- be sent again.
ALTER TABLE invitations ADD COLUMN token_hash TEXT;
ALTER TABLE invitations ADD COLUMN expires_at TEXT;
CREATE UNIQUE INDEX invitations_token ON invitations(token_hash) WHERE token_hash IS NOT NULL;

-- Failed sign-ins, counted per email address and client address alike for accounts
-- that exist and addresses that do not, so the answers never tell them apart, and a
-- stranger who knows an email cannot lock its owner out from elsewhere. The key is a
-- hash: the table names neither.
CREATE TABLE sign_in_failures (
    key            TEXT PRIMARY KEY,
    failures       INTEGER NOT NULL,
    last_failed_at TEXT NOT NULL
);
CREATE INDEX sign_in_failures_age ON sign_in_failures(last_failed_at);
