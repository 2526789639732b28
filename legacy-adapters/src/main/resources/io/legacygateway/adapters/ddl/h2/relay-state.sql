-- The gateway's own tables for relays (see ddl/postgresql/relay-state.sql for what they hold).
CREATE TABLE IF NOT EXISTS gateway_outbox_position (
    relay        VARCHAR(64)  PRIMARY KEY,
    source_table VARCHAR(300) NOT NULL,
    window_low   VARCHAR(64),
    window_high  VARCHAR(64),
    after_order  VARCHAR(255),
    after_key    VARCHAR(255),
    updated_at   TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS gateway_outbox_rejection (
    source_table VARCHAR(300)  NOT NULL,
    row_key      VARCHAR(255)  NOT NULL,
    relay        VARCHAR(64)   NOT NULL,
    event_id     VARCHAR(255),
    reason       VARCHAR(2000) NOT NULL,
    rejected_at  TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL,
    attempts     INTEGER DEFAULT 1 NOT NULL,
    state        VARCHAR(16) DEFAULT 'FAILED' NOT NULL,
    next_retry_at TIMESTAMP WITH TIME ZONE,
    PRIMARY KEY (source_table, row_key)
);
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS attempts INTEGER DEFAULT 1 NOT NULL;
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS state VARCHAR(16) DEFAULT 'FAILED' NOT NULL;
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS next_retry_at TIMESTAMP WITH TIME ZONE;
