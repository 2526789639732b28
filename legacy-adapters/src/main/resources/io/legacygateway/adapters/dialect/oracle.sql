-- Oracle 12c+ (NOT TESTED HERE: provided for users to verify on their own database).
-- Oracle rejects FETCH FIRST together with FOR UPDATE (ORA-02014); the claim limits rows with ROWNUM over an
-- ordered inline view of keys. That inner view does not skip locked rows, so a second relay on the same table waits
-- for the first one's rows instead of claiming others: run one relay per table on Oracle.

-- name: outbox.claim
SELECT {columns} FROM {table} WHERE {order} IN (SELECT {order} FROM (SELECT {order} FROM {table} WHERE {claimable} ORDER BY {order}) WHERE ROWNUM <= ?) ORDER BY {order} FOR UPDATE SKIP LOCKED

-- name: keyText
CAST({column} AS VARCHAR2(255))

-- name: rejection.insert
MERGE INTO {rejections} r USING (SELECT ? AS source_table, ? AS row_key, ? AS relay, ? AS event_id, ? AS reason FROM dual) n ON (r.source_table = n.source_table AND r.row_key = n.row_key) WHEN NOT MATCHED THEN INSERT (source_table, row_key, relay, event_id, reason) VALUES (n.source_table, n.row_key, n.relay, n.event_id, n.reason)

-- ZERO_WRITE is refused on Oracle here. A sound method would use ORA_ROWSCN (table created with ROWDEPENDENCIES)
-- against the lowest START_SCN of V$TRANSACTION; not provided because it cannot be tested here.
