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
    rejected_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),  -- UTC, written by the gateway
    attempts     INT           NOT NULL DEFAULT 1,
    state        VARCHAR(16)   NOT NULL DEFAULT 'FAILED',
    next_retry_at DATETIME(6)  NULL,                                   -- UTC
    PRIMARY KEY (source_table, row_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;  -- NO PAD: row keys 'k' and 'k ' are two rows
-- tables created by an earlier version of this script (one created with utf8mb4_bin, PAD SPACE, needs by hand:
-- ALTER TABLE gateway_outbox_rejection CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin)
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS attempts INT NOT NULL DEFAULT 1;
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS state VARCHAR(16) NOT NULL DEFAULT 'FAILED';
ALTER TABLE gateway_outbox_rejection ADD COLUMN IF NOT EXISTS next_retry_at DATETIME(6) NULL;
-- gateway_outbox_attempt: the relay's attempt log, one row per row per cycle that tried to publish it (written in
-- transactions of their own, so that a cycle which rolls back or dies still leaves its evidence): what was observed
-- from the broker (SENT: no answer recorded, CONFIRMED, REFUSED, DEFERRED, FAILED: the batch failed as a whole, OUTCOME_UNKNOWN: its commit failed without an answer (may have delivered),
-- NOT_SENT: the row could not become an event, DUPLICATE: the broker already held it and the relay has no record of
-- sending it, FILTERED: a step of the relay dropped it and the row was marked done) and the mark state once the cycle ended (NONE: it never ended,
-- PUBLISHED, RETRY, FAILED, ROLLED_BACK). The reconciliation report is derived from it. Kept for
-- gateway.reconciliation.attempt-retention.
CREATE TABLE IF NOT EXISTS gateway_outbox_attempt (
    id            BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    relay         VARCHAR(64)   NOT NULL,
    cycle_id      VARCHAR(36)   NOT NULL,   -- one relay cycle (claim, publish, mark)
    row_key       VARCHAR(255)  NOT NULL,
    event_id      VARCHAR(255),
    aggregate_key VARCHAR(600),             -- aggregate type:aggregate id
    attempted_at  DATETIME(6)   NOT NULL,   -- UTC, written by the gateway
    instance      VARCHAR(255)  NOT NULL,   -- relay@host:pid
    observation   VARCHAR(16)   NOT NULL,
    mark_state    VARCHAR(16)   NOT NULL DEFAULT 'NONE',
    detail        VARCHAR(2000)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX IF NOT EXISTS gateway_outbox_attempt_row ON gateway_outbox_attempt (relay, row_key);
-- no index on cycle_id: a cycle's rows are found through (relay, row_key); one more index on a random key cost a
-- quarter of the insert of a cycle's attempts (the hot write of the attempt log). An earlier version's index goes.
DROP INDEX IF EXISTS gateway_outbox_attempt_cycle ON gateway_outbox_attempt;
CREATE INDEX IF NOT EXISTS gateway_outbox_attempt_time ON gateway_outbox_attempt (relay, attempted_at);
-- gateway_outbox_cycle: one row per finished relay cycle of the attempt log: the broker's answer (observation, detail)
-- for the cycle's attempts still SENT and their mark state (ROLLED_BACK: the cycle's transaction rolled back), written
-- instead of updating each attempt; an attempt's own observation or mark (REFUSED, DEFERRED, parked, ...) stays on its
-- row. A cycle without a row here never finished: its attempts read SENT/NONE. Added after gateway_outbox_attempt:
-- an attempt log from before it keeps its rows' own finish and reads unchanged.
CREATE TABLE IF NOT EXISTS gateway_outbox_cycle (
    cycle_id      VARCHAR(36)   NOT NULL PRIMARY KEY,
    relay         VARCHAR(64)   NOT NULL,
    observation   VARCHAR(16)   NOT NULL,
    mark_state    VARCHAR(16)   NOT NULL,
    detail        VARCHAR(2000),
    attempted_at  DATETIME(6)   NOT NULL    -- UTC: the cycle's attempts' time (retention)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX IF NOT EXISTS gateway_outbox_cycle_time ON gateway_outbox_cycle (relay, attempted_at);
-- the relay's transactionMode in that cycle (LOCAL, XA); NULL in rows of a version before it. Added after
-- gateway_outbox_cycle: the attempt log writes it only where the column exists.
ALTER TABLE gateway_outbox_cycle ADD COLUMN IF NOT EXISTS transaction_mode VARCHAR(8) NULL;
-- gateway_xa_node: which gateway holds each XA node id (gateway.transactions.node-id), in the datasource of each relay
-- with transactionMode XA. Claimed at start, kept by a heartbeat: a second gateway with the same node id is refused at
-- its start while the holder's heartbeat is younger than the lease (its recovery would presume abort of the holder's
-- prepared branches). holder: host and object store folder of the gateway, so that the same instance restarted after a
-- crash claims it again at once. Times in UTC (UTC_TIMESTAMP), whatever the sessions' time zones. The gateway needs
-- SELECT, INSERT, UPDATE on it.
CREATE TABLE IF NOT EXISTS gateway_xa_node (
    node_id      VARCHAR(28)  NOT NULL PRIMARY KEY,
    holder       VARCHAR(600) NOT NULL,
    claimed_at   DATETIME(6)  NOT NULL,
    heartbeat_at DATETIME(6)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
