-- Trigger capture for SQL Server 2017+ (NOT TESTED HERE: provided for users to verify on their own database).
-- SQL Server triggers fire once per statement with the pseudo-tables inserted/deleted; one trigger per operation
-- inserts one outbox row per changed row. Values are literals the generator validated.

-- name: capture.trigger.INSERT
CREATE TRIGGER {trigger} ON {table} AFTER INSERT AS BEGIN SET NOCOUNT ON; INSERT INTO {outbox} ({columns}) SELECT {aggregateType}, {newKey}, {eventType}, (SELECT 'INSERT' AS [operation], {tableName} AS [table], JSON_QUERY((SELECT n2.* FROM inserted n2 WHERE {newJoin} FOR JSON PATH, WITHOUT_ARRAY_WRAPPER)) AS [new] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER) FROM inserted n; END

-- name: capture.trigger.UPDATE
CREATE TRIGGER {trigger} ON {table} AFTER UPDATE AS BEGIN SET NOCOUNT ON; INSERT INTO {outbox} ({columns}) SELECT {aggregateType}, {newKey}, {eventType}, (SELECT 'UPDATE' AS [operation], {tableName} AS [table], JSON_QUERY((SELECT n2.* FROM inserted n2 WHERE {newJoin} FOR JSON PATH, WITHOUT_ARRAY_WRAPPER)) AS [new], JSON_QUERY((SELECT o2.* FROM deleted o2 WHERE {oldJoin} FOR JSON PATH, WITHOUT_ARRAY_WRAPPER)) AS [old] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER) FROM inserted n; END

-- name: capture.trigger.DELETE
CREATE TRIGGER {trigger} ON {table} AFTER DELETE AS BEGIN SET NOCOUNT ON; INSERT INTO {outbox} ({columns}) SELECT {aggregateType}, {oldKey}, {eventType}, (SELECT 'DELETE' AS [operation], {tableName} AS [table], JSON_QUERY((SELECT o2.* FROM deleted o2 WHERE {oldJoin} FOR JSON PATH, WITHOUT_ARRAY_WRAPPER)) AS [old] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER) FROM deleted o; END

-- name: capture.keyPart
CAST({row}.{column} AS NVARCHAR(255))

-- name: capture.key
{parts}

-- name: capture.keySeparator
 + ':' + 

-- name: capture.joinPart
{left}.{column} = {right}.{column}

-- name: capture.dropTrigger
DROP TRIGGER IF EXISTS {trigger}

-- name: capture.row.new
n

-- name: capture.row.old
o
