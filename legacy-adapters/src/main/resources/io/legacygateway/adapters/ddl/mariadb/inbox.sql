-- The gateway's inbox tables for MariaDB 10.6+ / MySQL 8.0+ (InnoDB), in the database the consumer's effects change.
-- Applied only when asked (gateway.datasources.<name>.initialize-schema=true, or by hand).
-- inbox: one row per (message, consumer) whose effect committed, written in the effect's own transaction. The primary
-- key is what makes the effect happen once: the inbox inserts first (INSERT IGNORE) and a row count of 0 means
-- "already applied". utf8mb4_nopad_bin: keys compare byte for byte, trailing spaces included ('evt-1' and 'evt-1 ' are
-- two ids; utf8mb4_bin is PAD SPACE and would make them one, and the consumer refuses such a table at start). A table
-- created with utf8mb4_bin by an earlier version: ALTER TABLE inbox CONVERT TO CHARACTER SET utf8mb4 COLLATE
-- utf8mb4_nopad_bin (the same for inbox_sequence and inbox_parked). Times are DATETIME(6) in UTC.
CREATE TABLE IF NOT EXISTS inbox (
    message_id    VARCHAR(255) NOT NULL,  -- CloudEvents id (the event id)
    consumer_name VARCHAR(64)  NOT NULL,  -- inbox-consumer parameter 'consumer'
    processed_at  DATETIME(6)  NOT NULL,
    PRIMARY KEY (message_id, consumer_name),
    KEY ix_inbox_processed_at (processed_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;
-- Sequence gate (optional, parameter 'sequence'): the last sequence applied per aggregate and consumer ...
CREATE TABLE IF NOT EXISTS inbox_sequence (
    consumer_name VARCHAR(64)  NOT NULL,
    aggregate_key VARCHAR(255) NOT NULL,  -- <aggregatetype>:<subject>, the JMSXGroupID
    last_sequence BIGINT       NOT NULL,
    PRIMARY KEY (consumer_name, aggregate_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;
-- ... and the messages that arrived ahead of their turn, applied (and deleted) once the gap before them is filled.
CREATE TABLE IF NOT EXISTS inbox_parked (
    consumer_name   VARCHAR(64)  NOT NULL,
    aggregate_key   VARCHAR(255) NOT NULL,
    sequence_number BIGINT       NOT NULL,
    message_id      VARCHAR(255) NOT NULL,
    envelope        LONGTEXT     NOT NULL,  -- the message body as received
    parked_at       DATETIME(6)  NOT NULL,
    PRIMARY KEY (consumer_name, aggregate_key, sequence_number)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;
