-- Trigger capture for PostgreSQL 11+ (tested). One row-level AFTER trigger per table calls one PL/pgSQL function,
-- which inserts the change into the gateway's outbox table in the application's own transaction: a rolled-back write
-- leaves no outbox row. DDL cannot bind values: {aggregateType} and {eventTypePrefix} are string literals the
-- generator validated ([A-Za-z0-9_.:-] only); every other placeholder is a quoted identifier or a generated fragment.
-- The payload: {"operation": "INSERT|UPDATE|DELETE", "table": "<table>", "new": {row}, "old": {row}} (to_jsonb);
-- "table" is the captured table's name also for rows in its inheritance children and partitions.
-- The function is SECURITY DEFINER: it writes the outbox as its owner (the installer, or --definer), so the
-- application's own user needs no grant on the outbox; its search_path is pinned (every name in it is qualified), so
-- a writer cannot put its own objects in front of it.

-- name: capture.function
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = pg_catalog, pg_temp AS $gw_capture$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {oldKey}, {eventTypePrefix} || 'Deleted',
      json_build_object('operation', TG_OP, 'table', {tableName}, 'old', to_jsonb(OLD))::text);
    RETURN OLD;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventTypePrefix} || 'Updated',
      json_build_object('operation', TG_OP, 'table', {tableName}, 'new', to_jsonb(NEW), 'old', to_jsonb(OLD))::text);
    RETURN NEW;
  ELSE
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventTypePrefix} || 'Inserted',
      json_build_object('operation', TG_OP, 'table', {tableName}, 'new', to_jsonb(NEW))::text);
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

-- Where else the table's rows live (bind: the table, quoted, as text): its inheritance children and partitions, at
-- every depth, with whether each is a partition of a partitioned table (whose row triggers PostgreSQL 11+ clones onto
-- it and onto partitions attached later) or an inheritance child (which needs a trigger of its own).
-- name: capture.descendants
WITH RECURSIVE below(oid, cloned) AS (
  SELECT i.inhrelid, p.relkind = 'p' FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class p ON p.oid = i.inhparent
   WHERE i.inhparent = pg_catalog.to_regclass(?::text)
  UNION ALL
  SELECT i.inhrelid, p.relkind = 'p' FROM below b JOIN pg_catalog.pg_inherits i ON i.inhparent = b.oid
    JOIN pg_catalog.pg_class p ON p.oid = i.inhparent)
SELECT n.nspname, c.relname, b.cloned FROM below b JOIN pg_catalog.pg_class c ON c.oid = b.oid
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p', 'f')
  ORDER BY n.nspname, c.relname

-- The INSTEAD rules on a relation (bind: the relation, quoted, as text) for INSERT, UPDATE or DELETE, one row per
-- relation each refers to besides its own (schema and name NULL for none, as DO INSTEAD NOTHING): the write goes
-- there instead, and fires that relation's triggers, not this one's.
-- name: capture.insteadRules
SELECT r.rulename, CASE r.ev_type WHEN '2' THEN 'UPDATE' WHEN '3' THEN 'INSERT' ELSE 'DELETE' END, n.nspname, t.relname
  FROM pg_catalog.pg_rewrite r
  LEFT JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_rewrite'::regclass AND d.objid = r.oid
   AND d.refclassid = 'pg_catalog.pg_class'::regclass AND d.refobjid <> r.ev_class
  LEFT JOIN pg_catalog.pg_class t ON t.oid = d.refobjid AND t.relkind IN ('r', 'p', 'f', 'v')
  LEFT JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
 WHERE r.ev_class = pg_catalog.to_regclass(?::text) AND r.is_instead AND r.ev_type IN ('2', '3', '4')
 GROUP BY r.rulename, r.ev_type, n.nspname, t.relname ORDER BY r.rulename

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
