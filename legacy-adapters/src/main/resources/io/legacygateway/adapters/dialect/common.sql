-- Named statements shared by every dialect unless its own file redefines the name.
-- {placeholders} are replaced by quoted identifiers or by other named fragments, never by values:
-- every value is a ? bind, in the order the calling code documents.

-- name: outbox.claim
-- binds: pending status, [now when a next-retry column is mapped], limit
-- The oldest claimable rows, locked until the relay's transaction ends; rows another transaction holds are skipped.
SELECT {columns} FROM {table} WHERE {claimable} ORDER BY {order} LIMIT ? FOR UPDATE SKIP LOCKED

-- name: outbox.claim.pastHeldBack
-- The claim's continuation (OutboxRelay.claim), in the claim's transaction, when another relay holds the heads of the
-- aggregates that filled it (a frozen gateway whose lease has not run out yet): the claimable rows after the last row
-- claimed so far, without the aggregates held back, so that the next rows read are other aggregates' and the rows
-- behind the other relay's are neither read again nor locked. A row without an aggregate is kept. binds: the claim's
-- binds, the last claimed row's order, the held-back aggregates, limit
{order} > ? AND ({aggregateId} IS NULL OR {aggregateId} NOT IN ({aggregates}))

-- name: outbox.lease.check
-- The fence before the broker commits a cycle's batch (OutboxStore.proveClaim): one round trip on the cycle's
-- connection. It fails when the database ended the session (its claim lease ran out, an operator killed it), whose
-- row locks another relay may hold by now; it succeeds only on the session that still holds them, and restarts the
-- database's idle timer.
SELECT 1

-- name: outbox.claimable.status
-- STATUS mode. binds: pending status
{status} = ?

-- name: outbox.claimable.unprocessed
-- TIMESTAMP mode: no processed time yet
{processedAt} IS NULL

-- name: outbox.claimable.retryDue
-- binds: now
({nextRetryAt} IS NULL OR {nextRetryAt} <= ?)

-- Conditions the relay composes (OutboxStore). Columns are qualified ({column} = table.column or alias.column), so
-- that a condition means the same row inside a subquery over the same table.

-- name: condition.equals
{column} = ?

-- name: condition.in
-- {values}: literals or ? binds, as condition.equalsLiteral and condition.equals take them.
{column} IN ({values})

-- name: condition.equalsLiteral
-- A status value written as a literal (a plain word or number, checked by OutboxStore), so that a partial index on
-- the pending status matches the statement whatever plan the database caches.
{column} = {literal}

-- name: condition.isNull
{column} IS NULL

-- name: condition.isNotNull
{column} IS NOT NULL

-- name: condition.after
{column} > ?

-- name: condition.before
{column} < ?

-- name: condition.atMost
{column} <= ?

-- name: outbox.blockedBy
-- An earlier row of the same aggregate that blocks this one: it waits for its next retry, or (failedRowPolicy
-- BLOCK_AGGREGATE) it is parked as FAILED. binds: the blocker's binds. Claims skip blocked rows, so that a retrying
-- or FAILED row holds back its own aggregate only, never the rows of other aggregates behind it.
EXISTS (SELECT 1 FROM {table} gw_b WHERE gw_b.{aggregateId} = {outer}.{aggregateId} AND gw_b.{order} < {outer}.{order} AND ({blocker}))

-- name: outbox.blockedBy.waiting
-- The blocker's waiting condition when the row's own next-retry column says whether it waits for a retry.
{waiting}

-- name: outbox.blockedBy.failed
-- The blocker of failedRowPolicy BLOCK_AGGREGATE when a FAILED row has one of two statuses (FAILED, or pending with its
-- entry in the rejection log): {statuses} names both (condition.in), so that the aggregate's index (aggregate, status,
-- order) finds the earlier rows of those statuses; {failed} tells which of them is FAILED. Searched apart from a
-- retrying blocker (its own outbox.blockedBy), whose index is another.
({statuses}) AND ({failed})

-- name: rejection.exists.failed
-- The row is parked as FAILED in the gateway's table. binds: the source name
EXISTS (SELECT 1 FROM {rejections} gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = {keyText} AND gw_r.state = 'FAILED')

-- name: rejection.exists.notDue
-- The row waits for its next retry, as the gateway's table records it. binds: the source name, now
EXISTS (SELECT 1 FROM {rejections} gw_r WHERE gw_r.source_table = ? AND gw_r.row_key = {keyText} AND gw_r.state = 'RETRY' AND gw_r.next_retry_at > ?)

-- name: outbox.select.first
-- binds: the condition's binds, limit. A plain read (no lock).
SELECT {columns} FROM {table} WHERE {condition} ORDER BY {order} LIMIT ?

-- name: outbox.select.byKeyText
-- binds: the condition's binds, the keys as text
SELECT {columns} FROM {table} WHERE {condition} AND {keyText} IN ({keys})

-- name: outbox.count
-- binds: the condition's binds
SELECT COUNT(*) FROM {table} WHERE {condition}

-- name: outbox.countOf
-- How many rows a bounded read ({select}, an outbox.select.first) returns: it stops at its limit, however many match.
-- binds: the read's
SELECT COUNT(*) FROM ({select}) gw_c

-- name: retention.delete
-- Keyed delete of one bounded batch; the condition is checked again so that a row changed since it was selected
-- stays. binds: the keys, the condition's binds
DELETE FROM {table} WHERE {key} IN ({keys}) AND {condition}

-- name: outbox.firstWaitingNotHeld
-- binds: the pending condition's binds, aggregate ids, the last claimed row's order, the keys this claim holds
-- Per aggregate, the first waiting row in outbox order before the claim's last row that this claim does not hold
-- (held by another relay, or not due yet). A plain read: it does not wait for other relays' locks. The bound keeps it
-- a short range of the aggregate index, whatever the backlog behind the claim.
SELECT {aggregateId}, MIN({order}) FROM {table} WHERE {pending} AND {aggregateId} IN ({aggregates}) AND {order} < ? AND {key} NOT IN ({claimed}) GROUP BY {aggregateId}

-- name: outbox.firstFailedBefore
-- binds: the failed condition's binds (outbox.blockedBy.failed), aggregate ids, the last claimed row's order
-- failedRowPolicy BLOCK_AGGREGATE: per claimed aggregate, its first FAILED row before the claim's last row (a row
-- another relay parked while this claim ran). Apart from the waiting rows' read, so that each is served by an index
-- (the waiting rows': outbox order; FAILED rows: the aggregate's), never by a walk of the table's history.
SELECT {aggregateId}, MIN({order}) FROM {table} WHERE {failed} AND {aggregateId} IN ({aggregates}) AND {order} < ? GROUP BY {aggregateId}

-- name: outbox.mark
-- binds: the assignments' values, then the row key
UPDATE {table} SET {assignments} WHERE {key} = ?

-- name: outbox.markKeys
-- The mark of a whole batch in one statement (one round trip). binds: the assignments' values, then the row keys
UPDATE {table} SET {assignments} WHERE {key} IN ({keys})

-- name: outbox.deleteKeys
-- DELETE mode, a whole batch in one statement. binds: the row keys
DELETE FROM {table} WHERE {key} IN ({keys})

-- name: outbox.markIf
-- binds: the assignments' values, the row key, the condition's binds
UPDATE {table} SET {assignments} WHERE {key} = ? AND {condition}

-- name: outbox.delete
-- DELETE mode. binds: the row key
DELETE FROM {table} WHERE {key} = ?

-- name: rejection.entries
-- binds: source name, the keys as text
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND row_key IN ({keys})

-- name: rejection.clear
-- binds: source name, the keys as text
DELETE FROM {rejections} WHERE source_table = ? AND row_key IN ({keys})

-- name: rejection.due
-- ZERO_WRITE: rows waiting for a retry whose time has come. binds: source name, now, limit
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key LIMIT ?

-- name: rejection.failed
-- binds: source name, limit
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key LIMIT ?

-- name: rejection.reset
-- An operator's retry: the row is due now with a fresh budget of attempts. binds: source name, the keys as text
UPDATE {rejections} SET state = 'RETRY', attempts = 0, next_retry_at = NULL WHERE source_table = ? AND state = 'FAILED' AND row_key IN ({keys})

-- name: rejection.countFailed
-- binds: source name
SELECT COUNT(*) FROM {rejections} WHERE source_table = ? AND state = 'FAILED'

-- name: keyText
-- A row key as text: recorded with a rejection and compared with it in DELETE mode (both sides use this expression)
CAST({column} AS VARCHAR(255))

-- name: assign
{column} = ?

-- name: assign.null
{column} = NULL

-- name: assign.increment
{column} = {column} + 1

-- name: zerowrite.after.one
-- ZERO_WRITE cursor inside a window. binds: the last order value read
{a} > ?

-- name: zerowrite.after.two
-- binds: the last order value (twice), the last key
({a} > ? OR ({a} = ? AND {b} > ?))

-- name: position.insert
-- The gateway's position table (ddl/<db>/relay-state.sql). binds: relay, source table, window low (NULL: beginning).
-- Collides on a restart (ZeroWritePositions ignores that); MariaDB and PostgreSQL override it with one that does not.
INSERT INTO {positions} (relay, source_table, window_low) VALUES (?, ?, ?)

-- name: position.source
SELECT source_table FROM {positions} WHERE relay = ?

-- name: position.lock
-- Held until the cycle's transaction ends: one relay instance works a position at a time. binds: relay
SELECT window_low, window_high, after_order, after_key FROM {positions} WHERE relay = ? FOR UPDATE

-- name: position.read
-- A plain read of the position (metrics), without waiting for the relay's lock. binds: relay
SELECT window_low, window_high, after_order, after_key FROM {positions} WHERE relay = ?

-- name: position.update
-- binds: window low, window high, cursor order, cursor key, relay
UPDATE {positions} SET window_low = ?, window_high = ?, after_order = ?, after_key = ?, updated_at = CURRENT_TIMESTAMP WHERE relay = ?

-- Inbox statements use named binds (:messageId ...), bound by name by InboxStore; {table} is a quoted identifier.
-- inbox.record and inbox.sequence.create exist only in the dialects that support the inbox (PostgreSQL, MariaDB, H2).

-- name: inbox.retention.select
-- One bounded batch of a consumer's inbox rows older than the cutoff (index on processed_at).
SELECT message_id FROM {table} WHERE consumer_name = :consumer AND processed_at < :cutoff ORDER BY processed_at LIMIT :limit

-- name: inbox.retention.delete
DELETE FROM {table} WHERE consumer_name = :consumer AND processed_at < :cutoff AND message_id IN (:ids)

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

-- The relay's attempt log (AttemptLog, tables gateway_outbox_attempt and gateway_outbox_cycle in the relay's state
-- datasource): the insert before the broker, in a transaction of its own; one finish row per cycle (and the rows'
-- own answers) with the mark, in the cycle's transaction. {attempts} and {cycles} are the quoted table names.

-- name: attempt.insertRows
-- A cycle's attempts in one statement: {rows} is one (?, ?, ?, ?, ?, ?, ?, ?, ?) per attempt. binds, per attempt:
-- relay, cycle id, row key, event id, aggregate key, attempted at, instance, observation, detail
INSERT INTO {attempts} (relay, cycle_id, row_key, event_id, aggregate_key, attempted_at, instance, observation, detail) VALUES {rows}

-- name: attempt.finish
-- A cycle's finish, one row: the broker's answer for its rows still SENT (observation, detail) and their mark state
-- (ROLLED_BACK for every row of a rolled-back cycle). binds: cycle id, relay, observation, mark state, detail,
-- attempted at
INSERT INTO {cycles} (cycle_id, relay, observation, mark_state, detail, attempted_at) VALUES (?, ?, ?, ?, ?, ?)

-- name: attempt.finishWithMode
-- As attempt.finish, with the relay's transactionMode (LOCAL, XA), where the table has the column. binds: cycle id,
-- relay, observation, mark state, detail, attempted at, transaction mode
INSERT INTO {cycles} (cycle_id, relay, observation, mark_state, detail, attempted_at, transaction_mode) VALUES (?, ?, ?, ?, ?, ?, ?)

-- name: attempt.observeRow
-- A row's own answer, different from its cycle's; found by the (relay, row_key) index. binds: observation, detail,
-- relay, row key, cycle id
UPDATE {attempts} SET observation = ?, detail = ? WHERE relay = ? AND row_key = ? AND cycle_id = ?

-- name: attempt.markRow
-- A row's own mark (parked), different from its cycle's; found by the (relay, row_key) index. binds: mark state,
-- relay, row key, cycle id
UPDATE {attempts} SET mark_state = ? WHERE relay = ? AND row_key = ? AND cycle_id = ?

-- name: attempt.effective
-- Every attempt of a relay with its effective state: the row's own observation unless it is SENT and its cycle has a
-- finish row, then the cycle's answer; the row's own mark state when set (parked, or written by a version that
-- finished rows one by one), else none without a finish row, else the cycle's mark for a row that took the cycle's
-- answer or of a rolled-back cycle, else the mark of the row's own observation. binds: relay
SELECT a.id, a.row_key, a.event_id, a.aggregate_key, a.attempted_at, a.instance, a.cycle_id, CASE WHEN a.observation = 'SENT' AND c.cycle_id IS NOT NULL THEN c.observation ELSE a.observation END AS observation, CASE WHEN a.mark_state <> 'NONE' THEN a.mark_state WHEN c.cycle_id IS NULL THEN 'NONE' WHEN a.observation = 'SENT' OR c.mark_state = 'ROLLED_BACK' THEN c.mark_state WHEN a.observation IN ('CONFIRMED', 'DUPLICATE', 'FILTERED') THEN 'PUBLISHED' WHEN a.observation IN ('REFUSED', 'NOT_SENT') THEN 'RETRY' ELSE 'UNCHANGED' END AS mark_state, CASE WHEN a.observation = 'SENT' AND c.cycle_id IS NOT NULL THEN c.detail ELSE a.detail END AS detail FROM {attempts} a LEFT JOIN {cycles} c ON c.cycle_id = a.cycle_id WHERE a.relay = ?

-- name: attempt.byRows
-- {effective} is attempt.effective. binds: relay, row keys
SELECT row_key, event_id, aggregate_key, attempted_at, instance, observation, mark_state, detail, cycle_id FROM ({effective}) e WHERE row_key IN ({keys}) ORDER BY id

-- name: attempt.repeated
-- Rows with more than one attempt that may have reached the broker (confirmed, or sent without a recorded answer)
-- since a time. binds: relay, since
SELECT row_key FROM ({effective}) e WHERE attempted_at >= ? AND observation IN ('CONFIRMED', 'SENT', 'OUTCOME_UNKNOWN') GROUP BY row_key HAVING COUNT(*) > 1

-- name: attempt.duplicates
-- Rows the broker reported as duplicates that the relay has no record of sending, since a time. binds: relay, since
SELECT DISTINCT row_key FROM ({effective}) e WHERE attempted_at >= ? AND observation = 'DUPLICATE'

-- name: attempt.published
-- Rows whose publication a committed cycle marked, since a time, newest first. binds: relay, since
SELECT row_key, MAX(id) FROM ({effective}) e WHERE attempted_at >= ? AND mark_state = 'PUBLISHED' GROUP BY row_key ORDER BY MAX(id) DESC

-- name: attempt.old
-- binds: relay, before
SELECT id FROM {attempts} WHERE relay = ? AND attempted_at < ? ORDER BY id

-- name: attempt.delete
-- binds: ids
DELETE FROM {attempts} WHERE id IN ({ids})

-- name: attempt.oldCycles
-- Finish rows of cycles older than a time (their attempts are deleted first). binds: relay, before
SELECT cycle_id FROM {cycles} WHERE relay = ? AND attempted_at < ?

-- name: attempt.deleteCycles
-- binds: cycle ids
DELETE FROM {cycles} WHERE cycle_id IN ({ids})

-- Reconciliation (gateway-app io.legacygateway.reconciliation): a relay's domainTable against its outbox. Keys are
-- compared as text, as the intents' aggregate ids are. {domain}, {outbox} are quoted tables, the rest quoted columns.

-- name: reconciliation.domainRows
-- Which of these keys have a domain row. binds: the keys as text
SELECT CAST({key} AS VARCHAR(255)) FROM {domain} WHERE CAST({key} AS VARCHAR(255)) IN ({ids})

-- name: reconciliation.domainGaps
-- Domain rows without any intent of their aggregate (the dual-write gap).
SELECT CAST(d.{key} AS VARCHAR(255)) FROM {domain} d WHERE NOT EXISTS (SELECT 1 FROM {outbox} o WHERE o.{aggregateId} = CAST(d.{key} AS VARCHAR(255))) ORDER BY d.{key}

-- name: reconciliation.domainGaps.ofType
-- As above, counting only intents of the domain's aggregate type. binds: aggregate type
SELECT CAST(d.{key} AS VARCHAR(255)) FROM {domain} d WHERE NOT EXISTS (SELECT 1 FROM {outbox} o WHERE o.{aggregateId} = CAST(d.{key} AS VARCHAR(255)) AND o.{aggregateType} = ?) ORDER BY d.{key}

-- name: operations.audit.insert
-- One operator action (OperationAuditStore); the table is ddl/<dialect>/operations.sql. Rows are only ever inserted.
-- binds: at, actor, operation, target, selection, dry run, affected, detail
INSERT INTO gateway_operation_audit (at, actor, operation, target, selection, dry_run, affected, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)

-- Inbox consumers with transactionMode XA: a batch's database work is one savepoint of the global transaction's
-- branch, so a failing batch is undone without ending the branch (which would roll the JMS receive back with it).
-- {savepoint} is a quoted identifier.
-- name: xa.savepoint
SAVEPOINT {savepoint}

-- name: xa.rollbackToSavepoint
ROLLBACK TO SAVEPOINT {savepoint}

-- name: xa.releaseSavepoint
RELEASE SAVEPOINT {savepoint}
