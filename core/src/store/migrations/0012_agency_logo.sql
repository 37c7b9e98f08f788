-- The agency's logo, printed on every document and shown on the family's pages: one row
-- at most, the file exactly as uploaded (checked by decoding it first), with its type,
-- pixel size and SHA-256 (the cacheable address names it).
CREATE TABLE agency_logo (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
    bytes BLOB NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
