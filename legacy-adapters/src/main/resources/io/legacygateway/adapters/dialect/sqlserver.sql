-- Microsoft SQL Server 2016+ (NOT TESTED HERE: provided for users to verify on their own database).
-- READPAST skips rows other transactions hold, UPDLOCK/ROWLOCK keep the claimed rows until the transaction ends.

-- name: outbox.claim
SELECT {columns} FROM {table} WITH (UPDLOCK, ROWLOCK, READPAST) WHERE {claimable} ORDER BY {order} OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY

-- name: keyText
CAST({column} AS NVARCHAR(255))

-- name: rejection.upsert
MERGE INTO {rejections} WITH (HOLDLOCK) AS r USING (SELECT ? AS source_table, ? AS row_key, ? AS relay, ? AS event_id, ? AS reason, ? AS attempts, ? AS state, ? AS next_retry_at, ? AS rejected_at) AS n ON (r.source_table = n.source_table AND r.row_key = n.row_key) WHEN MATCHED THEN UPDATE SET relay = n.relay, event_id = n.event_id, reason = n.reason, attempts = n.attempts, state = n.state, next_retry_at = n.next_retry_at, rejected_at = n.rejected_at WHEN NOT MATCHED THEN INSERT (source_table, row_key, relay, event_id, reason, attempts, state, next_retry_at, rejected_at) VALUES (n.source_table, n.row_key, n.relay, n.event_id, n.reason, n.attempts, n.state, n.next_retry_at, n.rejected_at);

-- name: outbox.select.first
SELECT {columns} FROM {table} WHERE {condition} ORDER BY {order} OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY

-- name: rejection.due
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND state = 'RETRY' AND (next_retry_at IS NULL OR next_retry_at <= ?) ORDER BY rejected_at, row_key OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY

-- name: rejection.failed
SELECT row_key, event_id, reason, attempts, state, next_retry_at, rejected_at FROM {rejections} WHERE source_table = ? AND state = 'FAILED' ORDER BY rejected_at, row_key OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY

-- name: position.lock
SELECT window_low, window_high, after_order, after_key FROM {positions} WITH (UPDLOCK, ROWLOCK) WHERE relay = ?

-- ZERO_WRITE is refused on SQL Server here. A sound method would use a ROWVERSION column against
-- MIN_ACTIVE_ROWVERSION(); not provided because it cannot be tested here.
