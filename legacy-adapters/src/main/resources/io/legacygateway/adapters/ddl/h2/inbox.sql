-- The gateway's inbox tables for H2 2.x (the embedded demo). See postgresql/inbox.sql for what each column means.
CREATE TABLE IF NOT EXISTS inbox (
    message_id    VARCHAR(255) NOT NULL,
    consumer_name VARCHAR(64)  NOT NULL,
    processed_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_inbox PRIMARY KEY (message_id, consumer_name)
);
CREATE INDEX IF NOT EXISTS ix_inbox_processed_at ON inbox (processed_at);
CREATE TABLE IF NOT EXISTS inbox_sequence (
    consumer_name VARCHAR(64)  NOT NULL,
    aggregate_key VARCHAR(255) NOT NULL,
    last_sequence BIGINT       NOT NULL,
    CONSTRAINT pk_inbox_sequence PRIMARY KEY (consumer_name, aggregate_key)
);
CREATE TABLE IF NOT EXISTS inbox_parked (
    consumer_name   VARCHAR(64)  NOT NULL,
    aggregate_key   VARCHAR(255) NOT NULL,
    sequence_number BIGINT       NOT NULL,
    message_id      VARCHAR(255) NOT NULL,
    envelope        CLOB         NOT NULL,
    parked_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT pk_inbox_parked PRIMARY KEY (consumer_name, aggregate_key, sequence_number)
);
