-- Trigger capture for MariaDB 10.2+ / MySQL 8 (tested on MariaDB). One AFTER trigger per operation (MariaDB triggers
-- handle one event each); each inserts the change into the gateway's outbox table in the application's own
-- transaction (InnoDB). DDL cannot bind values: {aggregateType}, {eventType} and {tableName} are string literals the
-- generator validated; every other placeholder is a quoted identifier or a generated fragment. Binary columns appear
-- base64-encoded in the JSON image. Installing needs the TRIGGER privilege (a DBA, not the gateway's runtime user).

-- name: capture.trigger.INSERT
CREATE TRIGGER {trigger} AFTER INSERT ON {table} FOR EACH ROW INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventType}, JSON_OBJECT('operation', 'INSERT', 'table', {tableName}, 'new', JSON_OBJECT({newImage})))

-- name: capture.trigger.UPDATE
CREATE TRIGGER {trigger} AFTER UPDATE ON {table} FOR EACH ROW INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventType}, JSON_OBJECT('operation', 'UPDATE', 'table', {tableName}, 'new', JSON_OBJECT({newImage}), 'old', JSON_OBJECT({oldImage})))

-- name: capture.trigger.DELETE
CREATE TRIGGER {trigger} AFTER DELETE ON {table} FOR EACH ROW INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {oldKey}, {eventType}, JSON_OBJECT('operation', 'DELETE', 'table', {tableName}, 'old', JSON_OBJECT({oldImage})))

-- name: capture.keyPart
{row}.{column}

-- name: capture.key
CONCAT_WS(':', {parts})

-- name: capture.imagePair
'{name}', {row}.{column}

-- name: capture.imagePair.binary
'{name}', TO_BASE64({row}.{column})

-- name: capture.dropTrigger
DROP TRIGGER IF EXISTS {trigger}
