-- Named statements shared by every dialect unless its own file redefines the name.
-- {placeholders} are replaced by quoted identifiers or by other named fragments, never by values:
-- every value is a ? bind, in the order the calling code documents.

-- name: outbox.claim
-- binds: pending status, [now when a next-retry column is mapped], limit
-- The oldest claimable rows, locked until the relay's transaction ends; rows another transaction holds are skipped.
SELECT {columns} FROM {table} WHERE {claimable} ORDER BY {order} LIMIT ? FOR UPDATE SKIP LOCKED

-- name: outbox.claimable.status
-- STATUS mode. binds: pending status
{status} = ?

-- name: outbox.claimable.unprocessed
-- TIMESTAMP mode: no processed time yet
{processedAt} IS NULL

-- name: outbox.claimable.notRejected
-- DELETE mode: not recorded as rejected (the rejected row stays in the table). binds: the source name
NOT EXISTS (SELECT 1 FROM {rejections} gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = {keyText})

-- name: outbox.claimable.retryDue
({nextRetryAt} IS NULL OR {nextRetryAt} <= ?)

-- name: outbox.firstWaitingNotHeld
-- binds: the pending condition's binds, aggregate ids, the keys this claim holds
-- Per aggregate, the first waiting row in outbox order that this claim does not hold (held by another relay, or not
-- due yet). A plain read: it does not wait for other relays' locks.
SELECT {aggregateId}, MIN({order}) FROM {table} WHERE {pending} AND {aggregateId} IN ({aggregates}) AND {key} NOT IN ({claimed}) GROUP BY {aggregateId}

-- name: outbox.mark
-- binds: the assignments' values, then the row key
UPDATE {table} SET {assignments} WHERE {key} = ?

-- name: outbox.delete
-- DELETE mode. binds: the row key
DELETE FROM {table} WHERE {key} = ?

-- name: keyText
-- A row key as text: recorded with a rejection and compared with it in DELETE mode (both sides use this expression)
CAST({column} AS VARCHAR(255))

-- name: assign
{column} = ?

-- name: assign.increment
{column} = {column} + 1

-- name: zerowrite.after.one
-- ZERO_WRITE cursor inside a window. binds: the last order value read
{a} > ?

-- name: zerowrite.after.two
-- binds: the last order value (twice), the last key
({a} > ? OR ({a} = ? AND {b} > ?))

-- name: position.insert
-- The gateway's position table (ddl/<db>/relay-state.sql). binds: relay, source table, window low (NULL: beginning)
INSERT INTO {positions} (relay, source_table, window_low) VALUES (?, ?, ?)

-- name: position.source
SELECT source_table FROM {positions} WHERE relay = ?

-- name: position.lock
-- Held until the cycle's transaction ends: one relay instance works a position at a time. binds: relay
SELECT window_low, window_high, after_order, after_key FROM {positions} WHERE relay = ? FOR UPDATE

-- name: position.update
-- binds: window low, window high, cursor order, cursor key, relay
UPDATE {positions} SET window_low = ?, window_high = ?, after_order = ?, after_key = ?, updated_at = CURRENT_TIMESTAMP WHERE relay = ?

-- Inbox statements use named binds (:messageId ...), bound by name by InboxStore; {table} is a quoted identifier.
-- inbox.record and inbox.sequence.create exist only in the dialects that support the inbox (PostgreSQL, MariaDB, H2).

-- name: inbox.sequence.lock
-- The aggregate's last applied sequence, locked until the transaction ends: one message per aggregate at a time.
SELECT last_sequence FROM {table} WHERE consumer_name = :consumer AND aggregate_key = :aggregate FOR UPDATE

-- name: inbox.sequence.advance
UPDATE {table} SET last_sequence = :sequence WHERE consumer_name = :consumer AND aggregate_key = :aggregate

-- name: inbox.parked.find
SELECT message_id, envelope FROM {table} WHERE consumer_name = :consumer AND aggregate_key = :aggregate AND sequence_number = :sequence

-- name: inbox.parked.insert
INSERT INTO {table} (consumer_name, aggregate_key, sequence_number, message_id, envelope, parked_at) VALUES (:consumer, :aggregate, :sequence, :messageId, :envelope, :parkedAt)

-- name: inbox.parked.delete
DELETE FROM {table} WHERE consumer_name = :consumer AND aggregate_key = :aggregate AND sequence_number = :sequence

-- Dead-letter redelivery (gateway-app io.legacygateway.deadletter) reads and releases inbox rows; named binds, {table}
-- is the consumer's quoted inbox table.

-- name: inbox.applied
-- Which of these message ids the consumer has applied: a replay of those would be skipped as a duplicate.
SELECT message_id FROM {table} WHERE consumer_name = :consumer AND message_id IN (:messageIds)

-- name: inbox.release
-- Policy RELEASE_INBOX_AND_REDELIVER: forget that the consumer applied the message, so that a replay applies its
-- effect again. Audited by the caller.
DELETE FROM {table} WHERE message_id = :messageId AND consumer_name = :consumer
