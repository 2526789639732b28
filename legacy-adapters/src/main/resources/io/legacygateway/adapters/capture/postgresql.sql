-- Trigger capture for PostgreSQL 11+ (tested). One row-level AFTER trigger per table calls one PL/pgSQL function,
-- which inserts the change into the gateway's outbox table in the application's own transaction: a rolled-back write
-- leaves no outbox row. DDL cannot bind values: {aggregateType} and {eventTypePrefix} are string literals the
-- generator validated ([A-Za-z0-9_.:-] only); every other placeholder is a quoted identifier or a generated fragment.
-- The payload: {"operation": "INSERT|UPDATE|DELETE", "table": "<table>", "new": {row}, "old": {row}} (to_jsonb).
-- The function is SECURITY DEFINER: it writes the outbox as its owner (the installer, or --definer), so the
-- application's own user needs no grant on the outbox; its search_path is pinned (every name in it is qualified), so
-- a writer cannot put its own objects in front of it.

-- name: capture.function
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp AS $gw_capture$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {oldKey}, {eventTypePrefix} || 'Deleted',
      json_build_object('operation', TG_OP, 'table', TG_TABLE_NAME, 'old', to_jsonb(OLD))::text);
    RETURN OLD;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventTypePrefix} || 'Updated',
      json_build_object('operation', TG_OP, 'table', TG_TABLE_NAME, 'new', to_jsonb(NEW), 'old', to_jsonb(OLD))::text);
    RETURN NEW;
  ELSE
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventTypePrefix} || 'Inserted',
      json_build_object('operation', TG_OP, 'table', TG_TABLE_NAME, 'new', to_jsonb(NEW))::text);
    RETURN NEW;
  END IF;
END
$gw_capture$

-- name: capture.functionOwner
ALTER FUNCTION {function}() OWNER TO {definer}

-- name: capture.trigger
CREATE TRIGGER {trigger} AFTER {operations} ON {table} FOR EACH ROW EXECUTE FUNCTION {function}()

-- name: capture.operationSeparator
 OR 

-- name: capture.keyPart
{row}.{column}

-- name: capture.key
concat_ws(':', {parts})

-- name: capture.dropTrigger
DROP TRIGGER IF EXISTS {trigger} ON {table}

-- name: capture.dropFunction
DROP FUNCTION IF EXISTS {function}()

-- The initial load, run after CREATE TRIGGER in the same transaction (the trigger's lock keeps writers waiting).
-- Binds: aggregate type, event type, table name.
-- name: capture.snapshot.row
gw_row

-- name: capture.snapshot
INSERT INTO {outbox} ({columns}) SELECT ?, {key}, ?, json_build_object('operation', 'SNAPSHOT', 'table', ?::text,
  'new', to_jsonb(gw_row))::text FROM {table} AS gw_row ORDER BY {order}

-- Where the table lives, for qualified names in the function (bind: the table name as stored).
-- name: capture.schemaOf
SELECT n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE c.oid = pg_catalog.to_regclass(pg_catalog.quote_ident(?::text))

-- Privileges, checked before installing (binds: role, then the object as quoted text, then the privilege).
-- name: capture.currentAccount
SELECT current_user

-- name: capture.grants.account
SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname = ?

-- name: capture.grants.table
SELECT pg_catalog.has_table_privilege(?::name, ?::text, ?::text)

-- name: capture.grants.column
SELECT pg_catalog.has_column_privilege(?::name, ?::text, ?::text, ?::text)

-- name: capture.grants.schema
SELECT pg_catalog.has_schema_privilege(?::name, ?::text, ?::text)

-- name: capture.grants.member
SELECT pg_catalog.pg_has_role(?::name, ?::name, 'MEMBER')

-- Wake-up of relays (triggers --notify): a statement-level AFTER INSERT trigger on an outbox table that signals the
-- channel given as its argument. PostgreSQL delivers the notification at commit, folds identical notifications of one
-- transaction into one, and drops it with a rollback; a relay with wakeUp NOTIFY listens on the channel. The one
-- function serves every outbox (the channel is the trigger's argument, a literal the generator validated).
-- name: notify.function
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp AS $gw_notify$
BEGIN
  PERFORM pg_notify(TG_ARGV[0], '');
  RETURN NULL;
END
$gw_notify$

-- name: notify.trigger
CREATE TRIGGER {trigger} AFTER INSERT ON {outbox} FOR EACH STATEMENT EXECUTE FUNCTION {function}({channel})

-- name: notify.dropTrigger
DROP TRIGGER IF EXISTS {trigger} ON {outbox}
