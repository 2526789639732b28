-- MariaDB 10.6+ and MySQL 8+ (tested on MariaDB). SKIP LOCKED needs MariaDB 10.6 (MDEV-13115) or MySQL 8.0.1.
-- Note: MariaDB marks statements with SKIP LOCKED unsafe for statement-based binlog replication
-- (ER_BINLOG_UNSAFE_SKIP_LOCKED); use binlog_format=ROW or MIXED on a primary that runs the relay.

-- name: inbox.record
-- 1 row: first delivery; 0 rows: the (message, consumer) row exists. INSERT IGNORE also turns other errors (for
-- example a value too long) into warnings: InboxStore refuses ids longer than the column before it gets here.
INSERT IGNORE INTO {table} (message_id, consumer_name, processed_at) VALUES (:messageId, :consumer, :processedAt)

-- name: inbox.sequence.create
INSERT IGNORE INTO {table} (consumer_name, aggregate_key, last_sequence) VALUES (:consumer, :aggregate, 0)
