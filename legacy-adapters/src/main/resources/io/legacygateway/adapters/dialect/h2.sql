-- H2 2.x (tested; the embedded demo). The common statements are valid H2.

-- name: rejection.insert
-- binds: source table, row key, relay, event id, reason. A row rejected again keeps one entry (the latest reason).
MERGE INTO {rejections} (source_table, row_key, relay, event_id, reason) KEY (source_table, row_key) VALUES (?, ?, ?, ?, ?)

-- ZERO_WRITE is refused on H2 (no commit horizon a client can read).
