-- The gateway's own tables for relays, in the datasource that holds the relay's state (by default the relay's own).
-- Applied where initialize-schema is on, or by hand. The gateway needs SELECT, INSERT, UPDATE on both.
--   gateway_outbox_position: where a ZERO_WRITE relay stands (window of commit marks, cursor in it); one row per relay.
--   gateway_outbox_rejection: rows whose publication failed (they could not become events, or the broker refused
--                             them), when the mark mode cannot keep that on the row: attempts, next retry time, reason,
--                             and whether the row is parked as FAILED (state). Needed in TIMESTAMP, DELETE and
--                             ZERO_WRITE mode, and in STATUS mode when the table has no reason column or, with
--                             retries, no retry_count/next_retry_at columns. The row itself stays where it is.
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
    reason       VARCHAR(2000) NOT NULL,             -- reason of the last failed attempt
    rejected_at  TIMESTAMPTZ   NOT NULL DEFAULT CURRENT_TIMESTAMP,  -- time of the last failed attempt
    attempts     INTEGER       NOT NULL DEFAULT 1,   -- failed attempts (0 after an operator's retry)
    state        VARCHAR(16)   NOT NULL DEFAULT 'FAILED',  -- RETRY (waits for next_retry_at) or FAILED (parked)
    next_retry_at TIMESTAMPTZ,                       -- RETRY: not attempted before this time (NULL: now)
    PRIMARY KEY (source_table, row_key)
);
-- tables created by an earlier version of this script
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS state VARCHAR(16) NOT NULL DEFAULT 'FAILED';
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS next_retry_at TIMESTAMPTZ;
