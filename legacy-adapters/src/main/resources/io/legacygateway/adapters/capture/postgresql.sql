-- Trigger capture for PostgreSQL 11+ (tested). One row-level AFTER trigger per table calls one PL/pgSQL function,
-- which inserts the change into the gateway's outbox table in the application's own transaction: a rolled-back write
-- leaves no outbox row. DDL cannot bind values: {aggregateType} and {eventTypePrefix} are string literals the
-- generator validated ([A-Za-z0-9_.:-] only); every other placeholder is a quoted identifier or a generated fragment.
-- The payload: {"operation": "INSERT|UPDATE|DELETE", "table": "<table>", "new": {row}, "old": {row}} (to_jsonb).

-- name: capture.function
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $gw_capture$
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
