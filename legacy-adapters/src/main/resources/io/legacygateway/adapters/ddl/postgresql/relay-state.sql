-- The gateway's own tables for relays, in the datasource that holds the relay's state (by default the relay's own).
-- Applied where initialize-schema is on, or by hand. The gateway needs SELECT, INSERT, UPDATE on both.
--   gateway_outbox_position: where a ZERO_WRITE relay stands (window of commit marks, cursor in it); one row per relay.
--   gateway_outbox_rejection: rows that cannot become events, when the mark mode cannot keep the reason on the row
--                             (DELETE, ZERO_WRITE, or a table without a reason column). The row itself stays where it is.
CREATE TABLE IF NOT EXISTS gateway_outbox_position (
    relay        VARCHAR(64)  PRIMARY KEY,
    source_table VARCHAR(300) NOT NULL,  -- <datasource>/<table> the position belongs to
    window_low   VARCHAR(64),            -- marks below it are published (NULL: nothing yet, start from the beginning)
    window_high  VARCHAR(64),            -- end of the open window (NULL: none open)
    after_order  VARCHAR(255),           -- cursor in the open window: last order value published
    after_key    VARCHAR(255),           -- and its key, when the key is not the order column
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS gateway_outbox_rejection (
    source_table VARCHAR(300)  NOT NULL,
    row_key      VARCHAR(255)  NOT NULL,
    relay        VARCHAR(64)   NOT NULL,
    event_id     VARCHAR(255),
    reason       VARCHAR(2000) NOT NULL,
    rejected_at  TIMESTAMPTZ   NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (source_table, row_key)
);
