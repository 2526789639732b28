-- Oracle 12c+ (NOT TESTED HERE: provided for users to verify on their own database).
-- Oracle rejects FETCH FIRST together with FOR UPDATE (ORA-02014); the claim limits rows with ROWNUM over an
-- ordered inline view of keys. That inner view does not skip locked rows, so a second relay on the same table waits
-- for the first one's rows instead of claiming others: run one relay per table on Oracle.

-- name: outbox.claim
SELECT {columns} FROM {table} WHERE {order} IN (SELECT {order} FROM (SELECT {order} FROM {table} WHERE {claimable} ORDER BY {order}) WHERE ROWNUM <= ?) ORDER BY {order} FOR UPDATE SKIP LOCKED

-- name: keyText
CAST({column} AS VARCHAR2(255))

-- name: rejection.upsert
MERGE INTO {rejections} r USING (SELECT ? AS source_table, ? AS row_key, ? AS relay, ? AS event_id, ? AS reason, ? AS attempts, ? AS state, ? AS next_retry_at, ? AS rejected_at FROM dual) n ON (r.source_table = n.source_table AND r.row_key = n.row_key) WHEN MATCHED THEN UPDATE SET r.relay = n.relay, r.event_id = n.event_id, r.reason = n.reason, r.attempts = n.attempts, r.state = n.state, r.next_retry_at = n.next_retry_at, r.rejected_at = n.rejected_at WHEN NOT MATCHED THEN INSERT (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (n.source_table, n.row_key, n.relay, n.event_id, n.reason, n.attempts, n.state, n.next_retry_at, n.rejected_at)

-- name: outbox.select.first
SELECT {columns} FROM {table} WHERE {condition} ORDER BY {order} FETCH FIRST ? ROWS ONLY

-- name: rejection.due
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key FETCH FIRST ? ROWS ONLY

-- name: rejection.failed
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key FETCH FIRST ? ROWS ONLY

-- ZERO_WRITE is refused on Oracle here. A sound method would use ORA_ROWSCN (table created with ROWDEPENDENCIES)
-- against the lowest START_SCN of V$TRANSACTION; not provided because it cannot be tested here.
