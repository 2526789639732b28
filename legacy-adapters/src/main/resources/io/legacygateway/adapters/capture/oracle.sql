-- Trigger capture for Oracle 19c+ (NOT TESTED HERE: provided for users to verify on their own database).
-- One row-level compound-free AFTER trigger; JSON_OBJECT needs 12.2+. Values are literals the generator validated.

-- name: capture.trigger
CREATE OR REPLACE TRIGGER {trigger} AFTER {operations} ON {table} FOR EACH ROW
BEGIN
  IF INSERTING THEN
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventTypePrefix} || 'Inserted',
      JSON_OBJECT('operation' VALUE 'INSERT', 'table' VALUE {tableName}, 'new' VALUE JSON_OBJECT({newImage})));
  ELSIF UPDATING THEN
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {newKey}, {eventTypePrefix} || 'Updated',
      JSON_OBJECT('operation' VALUE 'UPDATE', 'table' VALUE {tableName}, 'new' VALUE JSON_OBJECT({newImage}),
                  'old' VALUE JSON_OBJECT({oldImage})));
  ELSE
    INSERT INTO {outbox} ({columns}) VALUES ({aggregateType}, {oldKey}, {eventTypePrefix} || 'Deleted',
      JSON_OBJECT('operation' VALUE 'DELETE', 'table' VALUE {tableName}, 'old' VALUE JSON_OBJECT({oldImage})));
  END IF;
END;

-- name: capture.operationSeparator
 OR 

-- name: capture.keyPart
TO_CHAR(:{row}.{column})

-- name: capture.key
{parts}

-- name: capture.keySeparator
 || ':' || 

-- name: capture.imagePair
'{name}' VALUE :{row}.{column}

-- name: capture.imagePair.binary
'{name}' VALUE RAWTOHEX(:{row}.{column})

-- name: capture.dropTrigger
DROP TRIGGER {trigger}
