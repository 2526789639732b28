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
-- gateway_outbox_attempt: the relay's attempt log, one row per row per cycle that tried to publish it (written in
-- transactions of their own, so that a cycle which rolls back or dies still leaves its evidence): what was observed
-- from the broker (SENT: no answer recorded, CONFIRMED, REFUSED, DEFERRED, FAILED: the batch failed as a whole, OUTCOME_UNKNOWN: its commit failed without an answer (may have delivered),
-- NOT_SENT: the row could not become an event, DUPLICATE: the broker already held it and the relay has no record of
-- sending it, FILTERED: a step of the relay dropped it and the row was marked done) and the mark state once the cycle ended (NONE: it never ended,
-- PUBLISHED, RETRY, FAILED, ROLLED_BACK). The reconciliation report is derived from it. Kept for
-- gateway.reconciliation.attempt-retention.
CREATE TABLE IF NOT EXISTS gateway_outbox_attempt (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    relay         VARCHAR(64)   NOT NULL,
    cycle_id      VARCHAR(36)   NOT NULL,   -- one relay cycle (claim, publish, mark)
    row_key       VARCHAR(255)  NOT NULL,
    event_id      VARCHAR(255),
    aggregate_key VARCHAR(600),             -- aggregate type:aggregate id
    attempted_at  TIMESTAMPTZ   NOT NULL,
    instance      VARCHAR(255)  NOT NULL,   -- relay@host:pid
    observation   VARCHAR(16)   NOT NULL,
    mark_state    VARCHAR(16)   NOT NULL DEFAULT 'NONE',
    detail        VARCHAR(2000)
);
-- full pages: a cycle's finish is a row of gateway_outbox_cycle, attempts are rarely updated (a table of an earlier
-- version left half of each page free for updating them in place)
ALTER TABLE gateway_outbox_attempt SET (fillfactor = 100);
CREATE INDEX IF NOT EXISTS gateway_outbox_attempt_row ON gateway_outbox_attempt (relay, row_key);
-- no index on cycle_id: a cycle's rows are found through (relay, row_key); one more index on a random key cost a
-- quarter of the insert of a cycle's attempts (the hot write of the attempt log). An earlier version's index goes.
DROP INDEX IF EXISTS gateway_outbox_attempt_cycle;
CREATE INDEX IF NOT EXISTS gateway_outbox_attempt_time ON gateway_outbox_attempt (relay, attempted_at);
-- gateway_outbox_cycle: one row per finished relay cycle of the attempt log: the broker's answer (observation, detail)
-- for the cycle's attempts still SENT and their mark state (ROLLED_BACK: the cycle's transaction rolled back), written
-- instead of updating each attempt; an attempt's own observation or mark (REFUSED, DEFERRED, parked, ...) stays on its
-- row. A cycle without a row here never finished: its attempts read SENT/NONE. Added after gateway_outbox_attempt:
-- an attempt log from before it keeps its rows' own finish and reads unchanged.
CREATE TABLE IF NOT EXISTS gateway_outbox_cycle (
    cycle_id      VARCHAR(36)   PRIMARY KEY,
    relay         VARCHAR(64)   NOT NULL,
    observation   VARCHAR(16)   NOT NULL,
    mark_state    VARCHAR(16)   NOT NULL,
    detail        VARCHAR(2000),
    attempted_at  TIMESTAMPTZ   NOT NULL    -- the cycle's attempts' time (retention)
);
CREATE INDEX IF NOT EXISTS gateway_outbox_cycle_time ON gateway_outbox_cycle (relay, attempted_at);
-- the relay's transactionMode in that cycle (LOCAL, XA); NULL in rows of a version before it. Added after
-- gateway_outbox_cycle: the attempt log writes it only where the column exists.
ALTER TABLE gateway_outbox_cycle ADD COLUMN IF NOT EXISTS transaction_mode VARCHAR(8);
-- gateway_outbox_attempt_pack: where it exists, the attempt log writes a cycle's attempts as ONE row of it (arrays of
-- equal length, one element per attempt: row key, event id, aggregate, observation, detail) instead of one row of
-- gateway_outbox_attempt per attempt. An attempt whose answer or mark differs from its cycle's (refused, deferred,
-- parked, ...) gets one row of gateway_outbox_attempt of its own with packed = TRUE, which overrides its element.
-- Attempts of an earlier version (packed = FALSE) read as before. Row keys are found through the GIN index (the
-- reconciliation looks attempts up by row key); fastupdate off: the pending list's cleanup would fall on one cycle.
-- The id comes from gateway_outbox_attempt's identity sequence: attempts and packs read in one order.
ALTER TABLE gateway_outbox_attempt ADD COLUMN IF NOT EXISTS packed BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE IF NOT EXISTS gateway_outbox_attempt_pack (
    id             BIGINT          PRIMARY KEY,
    relay          VARCHAR(64)     NOT NULL,
    cycle_id       VARCHAR(36)     NOT NULL,
    attempted_at   TIMESTAMPTZ     NOT NULL,
    instance       VARCHAR(255)    NOT NULL,
    row_keys       VARCHAR(255)[]  NOT NULL,
    event_ids      VARCHAR(255)[]  NOT NULL,
    aggregate_keys VARCHAR(600)[]  NOT NULL,
    observations   VARCHAR(16)[]   NOT NULL,
    details        VARCHAR(2000)[] NOT NULL
);
CREATE INDEX IF NOT EXISTS gateway_outbox_attempt_pack_time ON gateway_outbox_attempt_pack (relay, attempted_at);
CREATE INDEX IF NOT EXISTS gateway_outbox_attempt_pack_rows ON gateway_outbox_attempt_pack USING gin (row_keys)
    WITH (fastupdate = off);
-- gateway_xa_node: which gateway holds each XA node id (gateway.transactions.node-id), in the datasource of each relay
-- with transactionMode XA. Claimed at start, kept by a heartbeat: a second gateway with the same node id is refused at
-- its start while the holder's heartbeat is younger than the lease (its recovery would presume abort of the holder's
-- prepared branches). holder: host and object store folder of the gateway, so that the same instance restarted after a
-- crash claims it again at once. The gateway needs SELECT, INSERT, UPDATE on it.
CREATE TABLE IF NOT EXISTS gateway_xa_node (
    node_id      VARCHAR(28)  PRIMARY KEY,
    holder       VARCHAR(600) NOT NULL,
    claimed_at   TIMESTAMPTZ  NOT NULL DEFAULT CURRENT_TIMESTAMP,
    heartbeat_at TIMESTAMPTZ  NOT NULL DEFAULT CURRENT_TIMESTAMP
);
