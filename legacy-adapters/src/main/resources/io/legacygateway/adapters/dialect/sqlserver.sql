-- Microsoft SQL Server 2016+ (NOT TESTED HERE: provided for users to verify on their own database).
-- READPAST skips rows other transactions hold, UPDLOCK/ROWLOCK keep the claimed rows until the transaction ends.

-- name: outbox.claim
SELECT {columns} FROM {table} WITH (UPDLOCK, ROWLOCK, READPAST) WHERE {claimable} ORDER BY {order} OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY
