-- Named statements shared by every dialect unless its own file redefines the name.
-- {placeholders} are replaced by quoted identifiers or by other named fragments, never by values:
-- every value is a ? bind, in the order the calling code documents.

-- name: outbox.claim
-- binds: pending status, [now when a next-retry column is mapped], limit
-- The oldest claimable rows, locked until the relay's transaction ends; rows another transaction holds are skipped.
SELECT {columns} FROM {table} WHERE {claimable} ORDER BY {order} LIMIT ? FOR UPDATE SKIP LOCKED

-- name: outbox.claimable.status
{status} = ?

-- name: outbox.claimable.retryDue
({nextRetryAt} IS NULL OR {nextRetryAt} <= ?)

-- name: outbox.pendingHeads
-- binds: pending status, aggregate ids
-- Per aggregate, the first waiting row in outbox order, whoever holds it (a plain read does not wait for locks).
SELECT {aggregateId}, MIN({order}) FROM {table} WHERE {status} = ? AND {aggregateId} IN ({binds}) GROUP BY {aggregateId}

-- name: outbox.mark
-- binds: the assignments' values, then the row key
UPDATE {table} SET {assignments} WHERE {key} = ?

-- name: assign
{column} = ?

-- name: assign.increment
{column} = {column} + 1

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
