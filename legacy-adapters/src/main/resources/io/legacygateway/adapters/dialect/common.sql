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

-- name: outbox.firstWaitingNotHeld
-- binds: pending status, aggregate ids, the keys this claim holds
-- Per aggregate, the first waiting row in outbox order that this claim does not hold (held by another relay, or not
-- due yet). A plain read: it does not wait for other relays' locks.
SELECT {aggregateId}, MIN({order}) FROM {table} WHERE {status} = ? AND {aggregateId} IN ({aggregates}) AND {key} NOT IN ({claimed}) GROUP BY {aggregateId}

-- name: outbox.mark
-- binds: the assignments' values, then the row key
UPDATE {table} SET {assignments} WHERE {key} = ?

-- name: assign
{column} = ?

-- name: assign.increment
{column} = {column} + 1
