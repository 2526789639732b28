-- Trigger capture for H2 2.x (tested; the demo). H2 runs triggers as Java classes: H2CaptureTrigger (in
-- legacy-adapters, so on the classpath of the process that opened the database) inserts the change into the outbox
-- table in the writing session's transaction. Its settings travel in the trigger's comment; the values are literals
-- the generator validated.

-- name: capture.trigger
CREATE TRIGGER {trigger} AFTER {operations} ON {table} FOR EACH ROW CALL "io.legacygateway.adapters.capture.H2CaptureTrigger"

-- name: capture.operationSeparator
, 

-- name: capture.comment
COMMENT ON TRIGGER {trigger} IS {settings}

-- name: capture.dropTrigger
DROP TRIGGER IF EXISTS {trigger}
