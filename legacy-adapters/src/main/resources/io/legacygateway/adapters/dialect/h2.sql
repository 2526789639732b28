-- H2 2.x (tested; the embedded demo). The common statements are valid H2.
-- No outbox.lease: an embedded H2 serves one gateway, and nothing ends an idle session. The claim lease and the fence
-- before the broker commit (relay parameter claimLease) apply where the dialect has outbox.lease (PostgreSQL, MariaDB).

-- name: rejection.upsert
-- binds: source table, row key, relay, event id, reason, attempts, state, next retry at, at. One entry per row.
MERGE INTO {rejections} (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) KEY (source_table, row_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)

-- ZERO_WRITE is refused on H2 (no commit horizon a client can read).

-- name: inbox.record
-- H2 has no ON CONFLICT outside PostgreSQL mode: insert unless present. Two transactions racing on one id can both
-- pass the NOT EXISTS; the primary key then fails the later one, whose message the broker redelivers (and which is
-- then a duplicate). H2 is the demo's database, not a production target.
INSERT INTO {table} (message_id, consumer_name, processed_at) SELECT CAST(:messageId AS VARCHAR(255)), CAST(:consumer AS VARCHAR(64)), CAST(:processedAt AS TIMESTAMP WITH TIME ZONE) WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE message_id = :messageId AND consumer_name = :consumer)

-- name: inbox.sequence.create
-- The same race as inbox.record: the first two messages of a new aggregate, in concurrent transactions, both pass the
-- NOT EXISTS and the primary key fails the later one (its message is redelivered), where PostgreSQL and MariaDB wait.
INSERT INTO {table} (consumer_name, aggregate_key, last_sequence) SELECT CAST(:consumer AS VARCHAR(64)), CAST(:aggregate AS VARCHAR(255)), 0 WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE consumer_name = :consumer AND aggregate_key = :aggregate)

-- relay explain (OutboxExplain). H2 has no partial index: a composite index that leads with the status.

-- name: explain
EXPLAIN {statement}

-- name: advice.pendingIndex.status
CREATE INDEX {index} ON {table} ({status}, {order})

-- name: advice.pendingIndex.timestamp
CREATE INDEX {index} ON {table} ({publishedAt}, {order})

-- name: advice.pendingIndex.delete
CREATE INDEX {index} ON {table} ({order})
