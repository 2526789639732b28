-- The gateway's inbox tables for PostgreSQL 13+, in the database the consumer's effects change.
-- Applied only when asked (gateway.datasources.<name>.initialize-schema=true, or by hand).
-- inbox: one row per (message, consumer) whose effect committed, written in the effect's own transaction. The primary
-- key is what makes the effect happen once: the inbox inserts first (ON CONFLICT DO NOTHING) and a row count of 0
-- means "already applied". Delete old rows only beyond the longest time a message can be replayed (DLQ included).
CREATE TABLE IF NOT EXISTS inbox (
    message_id    VARCHAR(255) NOT NULL,  -- CloudEvents id (the event id)
    consumer_name VARCHAR(64)  NOT NULL,  -- inbox-consumer parameter 'consumer'
    processed_at  TIMESTAMPTZ  NOT NULL,
    CONSTRAINT pk_inbox PRIMARY KEY (message_id, consumer_name)
);
CREATE INDEX IF NOT EXISTS ix_inbox_processed_at ON inbox (processed_at);
-- Sequence gate (optional, parameter 'sequence'): the last sequence applied per aggregate and consumer ...
CREATE TABLE IF NOT EXISTS inbox_sequence (
    consumer_name VARCHAR(64)  NOT NULL,
    aggregate_key VARCHAR(255) NOT NULL,  -- <aggregatetype>:<subject>, the JMSXGroupID
    last_sequence BIGINT       NOT NULL,
    CONSTRAINT pk_inbox_sequence PRIMARY KEY (consumer_name, aggregate_key)
);
-- ... and the messages that arrived ahead of their turn, applied (and deleted) once the gap before them is filled.
CREATE TABLE IF NOT EXISTS inbox_parked (
    consumer_name   VARCHAR(64)  NOT NULL,
    aggregate_key   VARCHAR(255) NOT NULL,
    sequence_number BIGINT       NOT NULL,
    message_id      VARCHAR(255) NOT NULL,
    envelope        TEXT         NOT NULL,  -- the message body as received
    parked_at       TIMESTAMPTZ  NOT NULL,
    CONSTRAINT pk_inbox_parked PRIMARY KEY (consumer_name, aggregate_key, sequence_number)
);
