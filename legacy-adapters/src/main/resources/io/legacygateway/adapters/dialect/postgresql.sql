-- PostgreSQL (tested). The common statements are valid PostgreSQL; only differences go here.

-- name: outbox.claim.inOrder
-- Run in the relay's transaction before each claim (OutboxStore.claim; relay explain plans under it too): the claim
-- and the ordering check then read the index of waiting rows in outbox order and stop at their limit. Without it a
-- planner that believes few rows wait (a table never analysed, or analysed while nothing waited, the usual state of an
-- outbox) reads every waiting row and sorts them: 690 ms per claim of 100 behind a backlog of 20,000
-- (PostgresClaimBehindABacklogWithStatisticsOfAnEmptyOutboxTest). Lasts until the transaction ends; no statement of a
-- relay's cycle needs a sort. JIT off with it: a plan that must sort anyway carries the disabled sort's cost (10^10),
-- far above jit_above_cost, and was compiled in each cycle (125 ms for a read of 100 rows). Generic plans with them:
-- the cycle's statements are prepared on the server after five runs, and with the default plan_cache_mode the claim was
-- planned again in every cycle (its custom plan always looked cheaper than the generic one, whose limit is unknown:
-- 0.3 ms of the database's CPU per claim, PostgresCycleIsPlannedOncePerConnectionTest). With sorts off, its generic plan
-- reads the same index in the same order; the pending value, a literal, matches the partial index's predicate.
-- Sequential scans off with them: a generic plan is made once per connection and kept until the table's statistics
-- change, which on a table never analysed (autovacuum off, as on many legacy servers) is never. The mark's plan made
-- while the outbox was small read the whole table, and went on doing so as it grew: 165 ms per mark of 100 at 60,000
-- rows, a relay 5 s behind writers at 2,000 rows/s (PostgresCycleOnAGrowingOutboxNeverAnalysedTest). A statement no
-- index can serve still scans the table.
SELECT set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)

-- name: outbox.lease
-- The claim lease (relay parameter claimLease), run in the cycle's transaction before its claim: the server ends a
-- session that stays idle inside this transaction for longer (FATAL 25P03), which rolls it back and releases its row
-- locks, so that another relay claims the rows of a gateway that froze (a stop, a long pause of its JVM or VM) or lost
-- its network with them. Local to the transaction (set_config's third argument), so a pooled connection keeps nothing
-- of it. A cycle is idle in its transaction while it publishes: the lease must exceed publishTimeout (checked at
-- startup). binds: the lease in milliseconds, as text
SELECT set_config('idle_in_transaction_session_timeout', ?, true)

-- name: outbox.relock
-- binds: the condition's binds, the keys. After a mark the database refused (a trigger raising, a constraint), the
-- cycle rolled back to the savepoint taken before its claim (Dialect.claimsInMarkSavepoint), which released the
-- claim's locks: the rows still waiting are locked again before each is marked alone. A row another relay holds or
-- marked meanwhile is its own (it publishes it again: same duplicate-detection id).
SELECT {keyText} FROM {table} WHERE {condition} AND {key} IN ({keys}) FOR UPDATE SKIP LOCKED

-- name: outbox.blockedBy.waiting
-- Hidden from the planner behind a CASE, so that the index of waiting rows cannot serve the search for an earlier
-- retrying row: that search must start from the next-retry column (its index holds the few rows that wait for a
-- retry). With statistics taken while nothing waited (the usual state of an outbox), PostgreSQL believed the waiting
-- rows to be none and read all of them once per claimed row: 1.3 s per claim of 100 behind a backlog of 20,000, a
-- relay that could no longer catch up; 0.5 ms this way (PostgresClaimBehindABacklogWithStatisticsOfAnEmptyOutboxTest).
CASE WHEN {waiting} THEN TRUE ELSE FALSE END

-- name: outbox.blockedBy.failed
-- As the waiting condition above, {failed} (FAILED, or pending and parked in the log) is hidden behind a CASE: else the
-- planner could serve its pending branch from the index of waiting rows, all of them once per claimed row (565 ms and
-- 292,000 pages per claim of 100 behind 20,000 waiting rows, statistics taken while nothing waited). The statuses it
-- names leave it the aggregate's index: the aggregate's earlier FAILED and waiting rows, never its published history
-- (PostgresClaimBehindABacklogWithStatisticsOfAnEmptyOutboxTest).
({statuses}) AND (CASE WHEN {failed} THEN TRUE ELSE FALSE END)

-- name: rejection.upsert
-- binds: source table, row key, relay, event id, reason, attempts, state, next retry at, at. One entry per row: a
-- later attempt replaces the earlier one's values.
INSERT INTO {rejections} (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source_table, row_key) DO UPDATE SET relay = EXCLUDED.relay, event_id = EXCLUDED.event_id, reason = EXCLUDED.reason, attempts = EXCLUDED.attempts, state = EXCLUDED.state, next_retry_at = EXCLUDED.next_retry_at, rejected_at = EXCLUDED.rejected_at

-- ZERO_WRITE (PostgreSQL 13+). The mark of a row is the 64-bit id of the transaction that wrote this version of it:
-- its xmin (32 bits) widened against the epoch of pg_snapshot_xmax, which is valid for every xid within 2^31 of the
-- current one (autovacuum freezes older rows, whose widened value then lies up to 2^32 in the past; a row frozen more
-- than 2^32 transactions ago could be published once more, with its own event id).
-- The horizon is pg_snapshot_xmin(pg_current_snapshot()): every transaction with a lower id has ended, so the set of
-- rows whose mark lies below it can no longer change. No privilege is needed beyond SELECT on the table.

-- name: position.insert
-- binds: relay, source table, window low. A restart finds its position there and keeps it, without an error.
INSERT INTO {positions} (relay, source_table, window_low) VALUES (?, ?, ?) ON CONFLICT (relay) DO NOTHING

-- name: zerowrite.horizon
SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint

-- name: zerowrite.visibility
(gw.gw_ref - ((gw.gw_ref % 4294967296) - t.xmin::text::bigint + 4294967296) % 4294967296)

-- name: zerowrite.read
-- binds: [window low], window high, [cursor], limit. xmin cannot be indexed: this scans the table.
SELECT {columns} FROM {table} t CROSS JOIN (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS gw_ref) gw WHERE {window} ORDER BY {orderBy} LIMIT ?

-- name: zerowrite.count
-- binds: as zerowrite.read, without the limit
SELECT COUNT(*) FROM {table} t CROSS JOIN (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS gw_ref) gw WHERE {window}

-- name: inbox.record
-- 1 row: first delivery; 0 rows: the (message, consumer) row exists, or another transaction inserting it committed
-- while this one waited. No exception, so the transaction stays usable (a failed INSERT would abort it).
INSERT INTO {table} (message_id, consumer_name, processed_at) VALUES (:messageId, :consumer, :processedAt) ON CONFLICT DO NOTHING

-- name: inbox.recordAll
-- A batch's inbox rows in one statement, insert-first: RETURNING names the rows this statement inserted (the first
-- delivery of those messages); a row that existed, or that another transaction inserting it committed while this one
-- waited, is not returned. :rows expands to one (messageId, consumer, processedAt) tuple per distinct id.
INSERT INTO {table} (message_id, consumer_name, processed_at) VALUES :rows ON CONFLICT DO NOTHING RETURNING message_id

-- name: inbox.sequence.create
INSERT INTO {table} (consumer_name, aggregate_key, last_sequence) VALUES (:consumer, :aggregate, 0) ON CONFLICT DO NOTHING

-- name: attempt.insertColumns
-- A cycle's attempts in one statement of nine binds, whatever their number: the per-attempt values as five arrays of
-- equal length (one element per attempt), the cycle's own values once. Replaces attempt.insertRows (one tuple of nine
-- binds per attempt): the same rows, a fraction of the binds to encode and of the statement to parse. binds: relay,
-- cycle id, attempted at, instance, row keys[], event ids[], aggregate keys[], observations[], details[]
INSERT INTO {attempts} (relay, cycle_id, row_key, event_id, aggregate_key, attempted_at, instance, observation, detail) SELECT ?, ?, a.row_key, a.event_id, a.aggregate_key, ?, ?, a.observation, a.detail FROM unnest(CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[])) AS a(row_key, event_id, aggregate_key, observation, detail)

-- Packed attempts (where gateway_outbox_attempt_pack exists, see relay-state.sql): a cycle's attempts are ONE row of
-- {packs} (arrays of equal length, one element per attempt) instead of one row per attempt; an attempt whose answer or
-- mark differs from its cycle's gets one row of its own in {attempts} with packed = TRUE (its override). One
-- attempt-log row per cycle is what keeps the log's cost a small part of the relay's (the rows, not the indexes, were
-- its cost). {effective} is attempt.packed.effective for every reader.

-- name: attempt.packed.insert
-- A cycle's attempts as one row; its id comes from {attempts}' identity sequence, so that attempts and packs read in
-- one order. binds: {attempts} as text (for its sequence), relay, cycle id, attempted at, instance, row keys[],
-- event ids[], aggregate keys[], observations[], details[]
INSERT INTO {packs} (id, relay, cycle_id, attempted_at, instance, row_keys, event_ids, aggregate_keys, observations, details) VALUES (nextval(pg_get_serial_sequence(?, 'id')), ?, ?, ?, ?, CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]), CAST(? AS VARCHAR[]))

-- name: attempt.packed.override
-- A packed attempt's own answer and mark (REFUSED, DEFERRED, DUPLICATE, parked as FAILED, ...), which replace the
-- element's observation and detail. binds: relay, cycle id, row key, attempted at, instance, observation, mark state,
-- detail
INSERT INTO {attempts} (relay, cycle_id, row_key, attempted_at, instance, observation, mark_state, detail, packed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, TRUE)

-- name: attempt.packed.privileges
-- Whether the gateway's user may write packs: the table, and the attempts' identity sequence the insert takes its id
-- from (a script run by the tables' owner leaves both to be granted). binds: {packs} as text, {attempts} as text
SELECT has_table_privilege(CAST(? AS TEXT), 'SELECT, INSERT, DELETE') AND has_sequence_privilege(pg_get_serial_sequence(?, 'id'), 'USAGE')

-- name: attempt.packed.effective
-- As attempt.effective, over the attempts of an earlier version (one row each, packed = FALSE) and the elements of
-- the packs, each with its override if any; pos orders the elements of one pack. binds: relay
WITH r AS (SELECT CAST(? AS VARCHAR(64)) AS relay) SELECT x.id, x.pos, x.row_key, x.event_id, x.aggregate_key, x.attempted_at, x.instance, x.cycle_id, CASE WHEN x.observation = 'SENT' AND c.cycle_id IS NOT NULL THEN c.observation ELSE x.observation END AS observation, CASE WHEN x.mark_state <> 'NONE' THEN x.mark_state WHEN c.cycle_id IS NULL THEN 'NONE' WHEN x.observation = 'SENT' OR c.mark_state = 'ROLLED_BACK' THEN c.mark_state WHEN x.observation IN ('CONFIRMED', 'DUPLICATE', 'FILTERED') THEN 'PUBLISHED' WHEN x.observation IN ('REFUSED', 'NOT_SENT') THEN 'RETRY' ELSE 'UNCHANGED' END AS mark_state, CASE WHEN x.observation = 'SENT' AND c.cycle_id IS NOT NULL THEN c.detail ELSE x.detail END AS detail FROM (SELECT a.id, CAST(0 AS BIGINT) AS pos, a.row_key, a.event_id, a.aggregate_key, a.attempted_at, a.instance, a.cycle_id, a.observation, a.mark_state, a.detail FROM {attempts} a WHERE a.relay = (SELECT relay FROM r) AND NOT a.packed UNION ALL SELECT p.id, u.pos, u.row_key, u.event_id, u.aggregate_key, p.attempted_at, p.instance, p.cycle_id, COALESCE(o.observation, u.observation), COALESCE(o.mark_state, 'NONE'), CASE WHEN o.id IS NULL THEN u.detail ELSE o.detail END FROM {packs} p CROSS JOIN LATERAL unnest(p.row_keys, p.event_ids, p.aggregate_keys, p.observations, p.details) WITH ORDINALITY AS u(row_key, event_id, aggregate_key, observation, detail, pos) LEFT JOIN {attempts} o ON o.relay = p.relay AND o.row_key = u.row_key AND o.cycle_id = p.cycle_id AND o.packed WHERE p.relay = (SELECT relay FROM r)) x LEFT JOIN {cycles} c ON c.cycle_id = x.cycle_id

-- name: attempt.packed.byRows
-- As attempt.byRows: the packs that hold one of the keys are found by their index on row_keys (GIN), the attempts of
-- an earlier version by (relay, row_key). binds: relay, row keys[]
WITH r AS (SELECT CAST(? AS VARCHAR(64)) AS relay, CAST(? AS VARCHAR[]) AS keys) SELECT x.row_key, x.event_id, x.aggregate_key, x.attempted_at, x.instance, CASE WHEN x.observation = 'SENT' AND c.cycle_id IS NOT NULL THEN c.observation ELSE x.observation END AS observation, CASE WHEN x.mark_state <> 'NONE' THEN x.mark_state WHEN c.cycle_id IS NULL THEN 'NONE' WHEN x.observation = 'SENT' OR c.mark_state = 'ROLLED_BACK' THEN c.mark_state WHEN x.observation IN ('CONFIRMED', 'DUPLICATE', 'FILTERED') THEN 'PUBLISHED' WHEN x.observation IN ('REFUSED', 'NOT_SENT') THEN 'RETRY' ELSE 'UNCHANGED' END AS mark_state, CASE WHEN x.observation = 'SENT' AND c.cycle_id IS NOT NULL THEN c.detail ELSE x.detail END AS detail, x.cycle_id FROM (SELECT a.id, CAST(0 AS BIGINT) AS pos, a.row_key, a.event_id, a.aggregate_key, a.attempted_at, a.instance, a.cycle_id, a.observation, a.mark_state, a.detail FROM {attempts} a WHERE a.relay = (SELECT relay FROM r) AND a.row_key IN (SELECT unnest(keys) FROM r) AND NOT a.packed UNION ALL SELECT p.id, u.pos, u.row_key, u.event_id, u.aggregate_key, p.attempted_at, p.instance, p.cycle_id, COALESCE(o.observation, u.observation), COALESCE(o.mark_state, 'NONE'), CASE WHEN o.id IS NULL THEN u.detail ELSE o.detail END FROM {packs} p CROSS JOIN LATERAL unnest(p.row_keys, p.event_ids, p.aggregate_keys, p.observations, p.details) WITH ORDINALITY AS u(row_key, event_id, aggregate_key, observation, detail, pos) LEFT JOIN {attempts} o ON o.relay = p.relay AND o.row_key = u.row_key AND o.cycle_id = p.cycle_id AND o.packed WHERE p.relay = (SELECT relay FROM r) AND p.row_keys && (SELECT keys FROM r) AND u.row_key IN (SELECT unnest(keys) FROM r)) x LEFT JOIN {cycles} c ON c.cycle_id = x.cycle_id ORDER BY x.id, x.pos

-- name: attempt.packed.old
-- Packs older than a time (deleted before their overrides and cycles). binds: relay, before
SELECT id FROM {packs} WHERE relay = ? AND attempted_at < ? ORDER BY id

-- name: attempt.packed.delete
-- binds: ids
DELETE FROM {packs} WHERE id IN ({ids})

-- name: attempt.finish.noFlushWait
-- An attempt-log transaction of its own commits without waiting for its WAL flush: the insert when the relay's cycle
-- commits on the same database after it, that commit's flush then covering the insert, and a finish written after its
-- cycle (a lost one reads as SENT/NONE, "may have been delivered"; AttemptLog's class comment says what survives).
SET LOCAL synchronous_commit = off

-- name: attempt.joinStatements
-- Present where the driver sends statements joined by ; (with their binds) in one round trip, as PgJDBC does: an
-- attempt-log transaction's statements (no flush wait, previous finish, insert) then cost one round trip, not three.
;

-- relay explain (OutboxExplain): the plan of a rendered statement; nothing is executed. Its presence offers the command
-- (OutboxExplain.supports); on PostgreSQL the plans shown come from explain.prepare and explain.execute below.

-- name: explain
EXPLAIN {statement}

-- name: explain.prepare
-- The cycle runs generic plans (outbox.claim.inOrder), and an EXPLAIN with binds plans for their values: relay explain
-- prepares the statement ({statement} with $1, $2, ... for its binds) and explains its execution under the cycle's
-- setting, which shows the generic plan the cycle runs. Deallocated after; nothing is executed.
PREPARE gw_explain AS {statement}

-- name: explain.execute
-- {nulls}: NULL for each bind (EXECUTE takes no binds here, and a generic plan does not depend on their values)
EXPLAIN EXECUTE gw_explain ({nulls})

-- name: explain.deallocate
DEALLOCATE gw_explain

-- name: explain.indexDefinition
-- binds: table name, index name
SELECT indexdef FROM pg_indexes WHERE tablename = ? AND indexname = ? AND schemaname = COALESCE(CAST(? AS TEXT), current_schema())

-- name: advice.pendingIndex.status
-- The index a legacy table needs for the claim: only waiting rows, in outbox order (the claim writes the pending
-- status as a literal, so the predicate matches it under any cached plan).
CREATE INDEX {index} ON {table} ({order}) WHERE {status} = {pending}

-- name: advice.pendingIndex.timestamp
CREATE INDEX {index} ON {table} ({order}) WHERE {publishedAt} IS NULL

-- name: advice.pendingIndex.delete
CREATE INDEX {index} ON {table} ({order})

-- Relay wake-up (wakeUp NOTIFY): the relay's listening connection subscribes to the channel the outbox's notify
-- trigger signals ({channel} is a quoted identifier derived from the table, see NotifyTrigger.channel).
-- name: wakeUp.listen
LISTEN {channel}

-- name: wakeUp.unlisten
UNLISTEN *

-- name: xa.preparedTransactions
-- 0 (the default) means the server refuses PREPARE TRANSACTION, which two-phase commit (transactionMode XA) needs
SHOW max_prepared_transactions

-- name: xaNode.read
-- binds: node id. The holder, and its heartbeat's age in seconds on the database's clock; the row stays locked until
-- the claim's transaction ends.
SELECT holder, EXTRACT(EPOCH FROM (CURRENT_TIMESTAMP - heartbeat_at)) FROM gateway_xa_node WHERE node_id = ? FOR UPDATE

-- name: xaNode.insert
-- binds: node id, holder
INSERT INTO gateway_xa_node (node_id, holder, claimed_at, heartbeat_at) VALUES (?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)

-- name: xaNode.take
-- binds: holder, node id
UPDATE gateway_xa_node SET holder = ?, claimed_at = CURRENT_TIMESTAMP, heartbeat_at = CURRENT_TIMESTAMP WHERE node_id = ?

-- name: xaNode.heartbeat
-- binds: node id, holder. 0 rows: another gateway took the node id over.
UPDATE gateway_xa_node SET heartbeat_at = CURRENT_TIMESTAMP WHERE node_id = ? AND holder = ?
