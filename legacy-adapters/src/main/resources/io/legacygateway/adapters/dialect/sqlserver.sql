-- Microsoft SQL Server 2016+ (NOT TESTED HERE: provided for users to verify on their own database).
-- READPAST skips rows other transactions hold, UPDLOCK/ROWLOCK keep the claimed rows until the transaction ends.

-- name: outbox.claim
SELECT {columns} FROM {table} WITH (UPDLOCK, ROWLOCK, READPAST) WHERE {claimable} ORDER BY {order} OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY

-- name: keyText
CAST({column} AS NVARCHAR(255))

-- name: rejection.insert
MERGE INTO {rejections} WITH (HOLDLOCK) AS r USING (SELECT ? AS source_table, ? AS row_key, ? AS relay, ? AS event_id, ? AS reason) AS n ON (r.source_table = n.source_table AND r.row_key = n.row_key) WHEN NOT MATCHED THEN INSERT (source_table, row_key, relay, event_id, reason) VALUES (n.source_table, n.row_key, n.relay, n.event_id, n.reason);

-- name: position.lock
SELECT window_low, window_high, after_order, after_key FROM {positions} WITH (UPDLOCK, ROWLOCK) WHERE relay = ?

-- ZERO_WRITE is refused on SQL Server here. A sound method would use a ROWVERSION column against
-- MIN_ACTIVE_ROWVERSION(); not provided because it cannot be tested here.
