-- MariaDB 10.6+ and MySQL 8+ (tested on MariaDB). SKIP LOCKED needs MariaDB 10.6 (MDEV-13115) or MySQL 8.0.1.
-- Note: MariaDB marks statements with SKIP LOCKED unsafe for statement-based binlog replication
-- (ER_BINLOG_UNSAFE_SKIP_LOCKED); use binlog_format=ROW or MIXED on a primary that runs the relay.

-- name: keyText
CAST({column} AS CHAR(255))

-- name: outbox.lease
-- The claim lease (relay parameter claimLease), run before the cycle's claim: the server closes a connection that stays
-- idle inside a transaction for longer (idle_transaction_timeout, MariaDB 10.3+, whole seconds: the lease rounded up),
-- which rolls the transaction back and releases its row locks, so that another relay claims the rows of a gateway that
-- froze or lost its network with them. A session variable: it stays on the pooled connection after the cycle, so
-- outbox.lease.reset puts the server's default back once the cycle's transaction ended (OutboxStore), and an inbox
-- transaction or an operator's retry on the same pool never runs under it. A connection the reset cannot reach is one
-- the server closed: the pool drops it. binds: the lease in seconds
SET SESSION idle_transaction_timeout = ?

-- name: outbox.lease.reset
SET SESSION idle_transaction_timeout = DEFAULT

-- name: rejection.upsert
-- binds: source table, row key, relay, event id, reason, attempts, state, next retry at, at. One entry per row.
INSERT INTO {rejections} (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE relay = VALUES(relay), event_id = VALUES(event_id), reason = VALUES(reason), attempts = VALUES(attempts), state = VALUES(state), next_retry_at = VALUES(next_retry_at), rejected_at = VALUES(rejected_at)

-- ZERO_WRITE (MariaDB 10.6+, InnoDB). InnoDB has no row-level transaction id a client can read, so the mark of a row
-- is its insert time, filled by the database (DEFAULT CURRENT_TIMESTAMP(6): the start of the inserting statement,
-- on the server's clock). The horizon is the earliest of
--   * the start of every active InnoDB transaction (INNODB_TRX, shown only with the PROCESS privilege; without it the
--     query fails, and the relay refuses to start),
--   * the start of every running statement (PROCESSLIST), which covers an INSERT that started before its transaction
--     (a statement waiting for a metadata or table lock is in no transaction yet): every command but the idle and
--     the server's own (Sleep, Daemon, Binlog Dump, Slave_IO) counts, whatever it waits for; a JDBC batch runs as
--     Bulk_execute, a prepared statement as Execute (before 6 December 2026 only Query and Execute counted, and a
--     batch waiting for LOCK TABLES lost its rows),
--   * now,
-- minus the settle time, which covers the microseconds between a statement's start and its transaction's start. A row
-- whose insert time lies below the horizon was written by a transaction that has ended.
-- INNODB_TRX is a cache that InnoDB fills again only when nobody has read it for 0.1 s: read more often than that (by
-- monitoring, other relays, or this one), it stays as it was, for as long as the reads go on, and misses every
-- transaction begun since. So the horizon is read inside a transaction of its own (zerowrite.horizon.begin), and is
-- proven only when the list shows that transaction running this very statement: {call} is a token new for each read,
-- and the second column is 1 when the list holds it (binds: settle time in microseconds, then '%' token '%'). That
-- transaction writes nothing and is left out of the oldest start.
-- The readers of every gateway on the server take turns (zerowrite.horizon.lock): each read holds a named lock from
-- before it until 150 ms after it, so no gateway's read comes within 0.1 s after another's, and none keeps the list
-- stale for another (a reader outside the gateways still can; the relay then waits, as above).

-- Time zones: NOW(6), INNODB_TRX.trx_started and a TIMESTAMP column's values read in the session's time zone, a
-- DATETIME column holds the writer's local time. So every statement that reads or compares marks runs in one zone,
-- whatever the gateway's sessions use (zerowrite.inZone): UTC for a TIMESTAMP column (stored in UTC; no hour repeats),
-- the server's zone for a DATETIME column (the zone its writers' sessions get), which must have one offset all year
-- (zerowrite.zone.offsets; else the relay refuses to start: at a fall-back the repeated hour's rows would be passed).
-- INNODB_TRX shows trx_started in the operating system's zone (whole seconds), whatever the session's: it is converted
-- from 'SYSTEM' to the statement's zone (before 6 December 2026 a gateway session behind UTC read it hours late, and the
-- horizon passed running transactions).

-- name: zerowrite.zone.server
SELECT @@global.time_zone

-- name: zerowrite.zone.offsets
-- The zone's offset from UTC in seconds at two instants. binds: epoch second (twice), another epoch second (twice)
SET STATEMENT time_zone = '{zone}' FOR SELECT TIMESTAMPDIFF(SECOND, TIMESTAMP'1970-01-01 00:00:00' + INTERVAL ? SECOND, FROM_UNIXTIME(?)), TIMESTAMPDIFF(SECOND, TIMESTAMP'1970-01-01 00:00:00' + INTERVAL ? SECOND, FROM_UNIXTIME(?))

-- name: zerowrite.inZone
SET STATEMENT time_zone = '{zone}' FOR {statement}

-- name: zerowrite.horizon.lock
-- 1 when taken, 0 when another session held it for the whole wait, NULL on error. binds: wait in seconds
SELECT GET_LOCK('gateway.innodb_trx', ?)

-- name: zerowrite.horizon.unlock
DO RELEASE_LOCK('gateway.innodb_trx')

-- name: zerowrite.horizon.begin
START TRANSACTION WITH CONSISTENT SNAPSHOT

-- name: zerowrite.horizon
/* gateway commit horizon {call} */ SELECT LEAST(COALESCE(trx.oldest, NOW(6)), COALESCE((SELECT MIN(NOW(6) - INTERVAL ROUND(TIME_MS * 1000) MICROSECOND) FROM information_schema.PROCESSLIST WHERE COMMAND NOT IN ('Sleep', 'Daemon', 'Binlog Dump', 'Slave_IO') AND ID <> CONNECTION_ID()), NOW(6)), NOW(6)) - INTERVAL ? MICROSECOND, trx.current FROM (SELECT CONVERT_TZ(MIN(CASE WHEN trx_mysql_thread_id <> CONNECTION_ID() THEN trx_started END), 'SYSTEM', @@session.time_zone) AS oldest, COALESCE(MAX(trx_mysql_thread_id = CONNECTION_ID() AND trx_query LIKE ?), 0) AS current FROM information_schema.INNODB_TRX) trx

-- A statement that waited for a lock before its transaction began (LOCK TABLES, an ALTER TABLE's cut-over, FLUSH
-- TABLES WITH READ LOCK) has an InnoDB transaction that starts seconds after its rows' insert time: once the statement
-- is done, neither list shows how early its uncommitted rows are. So before a window [low, h) opens, its rows are
-- counted as a dirty read (READ UNCOMMITTED, every row physically there) and as a committed read, in that order; where
-- the two differ, h is lowered to the earliest row only the dirty read holds (ZeroWriteWindows#finalUpTo). A row below
-- h is then either in the table already (and seen by the dirty read) or written by a statement that was running when
-- h was read (and counted above). binds: [window low], window high

-- name: zerowrite.uncommitted.digest
SELECT COUNT(*), COALESCE(BIT_XOR(CRC32({keyText})), 0), COALESCE(BIT_XOR(CRC32(CONCAT('gw', {keyText}))), 0) FROM {table} t WHERE {window}

-- name: zerowrite.uncommitted.rows
SELECT {keyText}, {createdAt} FROM {table} t WHERE {window}

-- name: position.insert
-- binds: relay, source table, window low. A restart finds its position there: the no-op update keeps it, without the
-- duplicate-key error that the driver logged as a WARN at every restart (INSERT IGNORE would also truncate a long value)
INSERT INTO {positions} (relay, source_table, window_low) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE relay = relay

-- name: zerowrite.visibility
{createdAt}

-- name: zerowrite.read
-- binds: [window low], window high, [cursor], limit. An index on the insert-time column keeps this a range scan.
SELECT {columns} FROM {table} t WHERE {window} ORDER BY {orderBy} LIMIT ?

-- name: zerowrite.count
SELECT COUNT(*) FROM {table} t WHERE {window}

-- name: inbox.record
-- 1 row: first delivery; 0 rows: the (message, consumer) row exists. INSERT IGNORE also turns other errors (for
-- example a value too long) into warnings: InboxStore refuses ids longer than the column before it gets here.
INSERT IGNORE INTO {table} (message_id, consumer_name, processed_at) VALUES (:messageId, :consumer, :processedAt)

-- name: inbox.recordAll
-- A batch's inbox rows in one statement, insert-first (MariaDB 10.5+): RETURNING names only the rows this statement
-- inserted; ignored rows (the key existed) are not returned. :rows expands to one tuple per distinct id.
INSERT IGNORE INTO {table} (message_id, consumer_name, processed_at) VALUES :rows RETURNING message_id

-- name: inbox.sequence.create
INSERT IGNORE INTO {table} (consumer_name, aggregate_key, last_sequence) VALUES (:consumer, :aggregate, 0)

-- name: inbox.keysPadSpaces
-- binds: schema (null: the connection's database), table. The key columns of an inbox or gate table whose collation
-- is PAD SPACE (ignores trailing spaces: 'evt-1' and 'evt-1 ' would be one key). MariaDB names its NO PAD collations
-- *_nopad_*, MySQL 8 its *_0900_* ones; a binary column has no collation.
SELECT COLUMN_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ? AND LOWER(COLUMN_NAME) IN ('message_id', 'consumer_name', 'aggregate_key') AND COLLATION_NAME IS NOT NULL AND COLLATION_NAME NOT LIKE '%nopad%' AND COLLATION_NAME NOT LIKE '%\_0900\_%' ORDER BY ORDINAL_POSITION

-- name: reconciliation.domainRows
SELECT CAST({key} AS CHAR) FROM {domain} WHERE CAST({key} AS CHAR) IN ({ids})

-- name: reconciliation.domainGaps
SELECT CAST(d.{key} AS CHAR) FROM {domain} d WHERE NOT EXISTS (SELECT 1 FROM {outbox} o WHERE o.{aggregateId} = CAST(d.{key} AS CHAR)) ORDER BY d.{key}

-- name: reconciliation.domainGaps.ofType
SELECT CAST(d.{key} AS CHAR) FROM {domain} d WHERE NOT EXISTS (SELECT 1 FROM {outbox} o WHERE o.{aggregateId} = CAST(d.{key} AS CHAR) AND o.{aggregateType} = ?) ORDER BY d.{key}

-- name: outbox.claimable.retryDue
-- binds: now. The same condition as common.sql's, written so that the optimizer cannot use an index on the retry
-- column for it: with that range plan (MariaDB picks it on stale statistics) the claim sorts every waiting row and
-- FOR UPDATE SKIP LOCKED keeps all of them locked until the cycle ends, so a second relay finds nothing to claim.
-- Walking the claim or primary index in outbox order locks only the rows the claim returns.
IFNULL({nextRetryAt} <= ?, TRUE)

-- relay explain (OutboxExplain). MariaDB has no partial index: the waiting rows are one range of a composite index
-- that leads with the status (or the processed time).

-- name: explain
EXPLAIN {statement}

-- name: advice.pendingIndex.status
CREATE INDEX {index} ON {table} ({status}, {order})

-- name: advice.pendingIndex.timestamp
CREATE INDEX {index} ON {table} ({publishedAt}, {order})

-- name: advice.pendingIndex.delete
CREATE INDEX {index} ON {table} ({order})

-- name: xaNode.read
-- binds: node id. The holder, and its heartbeat's age in seconds (UTC, whatever the session's time zone); the row stays
-- locked until the claim's transaction ends.
SELECT holder, TIMESTAMPDIFF(MICROSECOND, heartbeat_at, UTC_TIMESTAMP(6)) / 1000000 FROM gateway_xa_node WHERE node_id = ? FOR UPDATE

-- name: xaNode.insert
-- binds: node id, holder
INSERT INTO gateway_xa_node (node_id, holder, claimed_at, heartbeat_at) VALUES (?, ?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))

-- name: xaNode.take
-- binds: holder, node id
UPDATE gateway_xa_node SET holder = ?, claimed_at = UTC_TIMESTAMP(6), heartbeat_at = UTC_TIMESTAMP(6) WHERE node_id = ?

-- name: xaNode.heartbeat
-- binds: node id, holder. 0 rows: another gateway took the node id over.
UPDATE gateway_xa_node SET heartbeat_at = UTC_TIMESTAMP(6) WHERE node_id = ? AND holder = ?
