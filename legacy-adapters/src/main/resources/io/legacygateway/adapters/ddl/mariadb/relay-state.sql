-- The gateway's own tables for relays (see ddl/postgresql/relay-state.sql for what they hold).
-- Applied where initialize-schema is on, or by hand. The gateway needs SELECT, INSERT, UPDATE on both.
CREATE TABLE IF NOT EXISTS gateway_outbox_position (
    relay        VARCHAR(64)  NOT NULL,
    source_table VARCHAR(300) NOT NULL,
    window_low   VARCHAR(64)  NULL,
    window_high  VARCHAR(64)  NULL,
    after_order  VARCHAR(255) NULL,
    after_key    VARCHAR(255) NULL,
    updated_at   DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (relay)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE IF NOT EXISTS gateway_outbox_rejection (
    source_table VARCHAR(300)  NOT NULL,
    row_key      VARCHAR(255)  NOT NULL,
    relay        VARCHAR(64)   NOT NULL,
    event_id     VARCHAR(255)  NULL,
    reason       VARCHAR(2000) NOT NULL,
    rejected_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    PRIMARY KEY (source_table, row_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
