-- Trigger capture for MariaDB 10.2+ / MySQL 8 (tested on MariaDB). One AFTER trigger per operation (MariaDB triggers
-- handle one event each); each inserts the change into the gateway's outbox table in the application's own
-- transaction (InnoDB). DDL cannot bind values: {aggregateType}, {eventType} and {tableName} are string literals the
-- generator validated; every other placeholder is a quoted identifier or a generated fragment. Binary columns appear
-- base64-encoded in the JSON image. Installing needs the TRIGGER privilege (a DBA, not the gateway's runtime user).
-- The triggers run as their DEFINER (the installer, or --definer): it needs TRIGGER and SELECT on the table and
-- INSERT on the outbox for as long as the triggers exist; a dropped definer fails every write (ERROR 1449).

-- name: capture.trigger.INSERT
CREATE {definer}TRIGGER {trigger} AFTER INSERT ON {table} FOR EACH ROW INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventType}, JSON_OBJECT('operation', 'INSERT', 'table', {tableName}, 'new', JSON_OBJECT({newImage})))

-- name: capture.trigger.UPDATE
CREATE {definer}TRIGGER {trigger} AFTER UPDATE ON {table} FOR EACH ROW INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventType}, JSON_OBJECT('operation', 'UPDATE', 'table', {tableName}, 'new', JSON_OBJECT({newImage}), 'old', JSON_OBJECT({oldImage})))

-- name: capture.trigger.DELETE
CREATE {definer}TRIGGER {trigger} AFTER DELETE ON {table} FOR EACH ROW INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {oldKey}, {eventType}, JSON_OBJECT('operation', 'DELETE', 'table', {tableName}, 'old', JSON_OBJECT({oldImage})))

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

-- name: capture.definer
DEFINER = {account}

-- CREATE TRIGGER commits by itself: the table and the outbox stay write-locked from before the first trigger until
-- the snapshot is committed, so no write of the application falls between (LOCK TABLES privilege; SELECT on both).
-- name: capture.lock
LOCK TABLES {table} WRITE, {outbox} WRITE

-- name: capture.unlock
UNLOCK TABLES

-- The initial load (binds: aggregate type, event type, table name); no alias: LOCK TABLES locks the table by name.
-- name: capture.snapshot.row
{table}

-- name: capture.snapshot
INSERT INTO {outbox} ({columns}) SELECT ?, {key}, ?, JSON_OBJECT('operation', 'SNAPSHOT', 'table', ?, 'new', JSON_OBJECT({image})) FROM {table} ORDER BY {order}

-- Where the table lives, for qualified names (bind: the table name; a table named without a database is in the
-- connection's).
-- name: capture.schemaOf
SELECT DATABASE() FROM DUAL WHERE ? IS NOT NULL

-- The table's definition, whose column lines name every column whatever the user's privileges (any privilege on the
-- table allows it), unlike information_schema.COLUMNS, which lists only the columns the user holds a privilege on.
-- name: capture.declaredColumns
SHOW CREATE TABLE {table}

-- Privileges, checked before installing. information_schema shows the current account's own grants, and another
-- account's only to a user who can read the mysql database. Binds: the grantee ('user'@'host'), then the database.
-- name: capture.currentAccount
SELECT CURRENT_USER()

-- name: capture.grants.account
SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ?

-- Rows (privilege, table or NULL, column or NULL); a NULL table is a global or database-wide grant. Database grants
-- may be patterns (`app\_%`.*), hence LIKE.
-- name: capture.grants.held
SELECT PRIVILEGE_TYPE, NULL, NULL FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ?
UNION ALL SELECT PRIVILEGE_TYPE, NULL, NULL FROM information_schema.SCHEMA_PRIVILEGES WHERE GRANTEE = ? AND ? LIKE TABLE_SCHEMA
UNION ALL SELECT PRIVILEGE_TYPE, TABLE_NAME, NULL FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = ? AND TABLE_SCHEMA = ?
UNION ALL SELECT PRIVILEGE_TYPE, TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMN_PRIVILEGES WHERE GRANTEE = ? AND TABLE_SCHEMA = ?
