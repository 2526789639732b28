-- Oracle 12c+ (NOT TESTED HERE: provided for users to verify on their own database).
-- Oracle rejects FETCH FIRST together with FOR UPDATE (ORA-02014); the claim limits rows with ROWNUM over an
-- ordered inline view of keys. That inner view does not skip locked rows, so a second relay on the same table waits
-- for the first one's rows instead of claiming others: run one relay per table on Oracle.

-- name: outbox.claim
SELECT {columns} FROM {table} WHERE {order} IN (SELECT {order} FROM (SELECT {order} FROM {table} WHERE {claimable} ORDER BY {order}) WHERE ROWNUM <= ?) ORDER BY {order} FOR UPDATE SKIP LOCKED
