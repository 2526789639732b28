-- The gateway's own tables for relays on SQL Server (NOT TESTED HERE). Idempotent.
IF OBJECT_ID(N'gateway_outbox_position', N'U') IS NULL
CREATE TABLE gateway_outbox_position (
    relay        NVARCHAR(64)  NOT NULL PRIMARY KEY,
    source_table NVARCHAR(300) NOT NULL,
    window_low   NVARCHAR(64)  NULL,
    window_high  NVARCHAR(64)  NULL,
    after_order  NVARCHAR(255) NULL,
    after_key    NVARCHAR(255) NULL,
    updated_at   DATETIMEOFFSET NOT NULL DEFAULT SYSDATETIMEOFFSET()
);
IF OBJECT_ID(N'gateway_outbox_rejection', N'U') IS NULL
CREATE TABLE gateway_outbox_rejection (
    source_table NVARCHAR(300)  NOT NULL,
    row_key      NVARCHAR(255)  NOT NULL,
    relay        NVARCHAR(64)   NOT NULL,
    event_id     NVARCHAR(255)  NULL,
    reason       NVARCHAR(2000) NOT NULL,
    rejected_at  DATETIMEOFFSET NOT NULL DEFAULT SYSDATETIMEOFFSET(),
    attempts     INT NOT NULL DEFAULT 1,
    state        NVARCHAR(16) NOT NULL DEFAULT 'FAILED',
    next_retry_at DATETIMEOFFSET NULL,
    PRIMARY KEY (source_table, row_key)
);
-- gateway_outbox_attempt: the relay's attempt log, one row per row per cycle that tried to publish it (written in
-- transactions of their own, so that a cycle which rolls back or dies still leaves its evidence): what was observed
-- from the broker (SENT: no answer recorded, CONFIRMED, REFUSED, DEFERRED, FAILED: the batch failed as a whole, OUTCOME_UNKNOWN: its commit failed without an answer (may have delivered),
-- NOT_SENT: the row could not become an event, DUPLICATE: the broker already held it and the relay has no record of
-- sending it, FILTERED: a step of the relay dropped it and the row was marked done) and the mark state once the cycle ended (NONE: it never ended,
-- PUBLISHED, RETRY, FAILED, ROLLED_BACK). The reconciliation report is derived from it. Kept for
-- gateway.reconciliation.attempt-retention.
IF OBJECT_ID(N'gateway_outbox_attempt', N'U') IS NULL
CREATE TABLE gateway_outbox_attempt (
    id            BIGINT IDENTITY PRIMARY KEY,
    relay         NVARCHAR(64)   NOT NULL,
    cycle_id      NVARCHAR(36)   NOT NULL,
    row_key       NVARCHAR(255)  NOT NULL,
    event_id      NVARCHAR(255)  NULL,
    aggregate_key NVARCHAR(600)  NULL,
    attempted_at  DATETIMEOFFSET NOT NULL,
    instance      NVARCHAR(255)  NOT NULL,
    observation   NVARCHAR(16)   NOT NULL,
    mark_state    NVARCHAR(16)   NOT NULL DEFAULT 'NONE',
    detail        NVARCHAR(2000) NULL
);
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'gateway_outbox_attempt_row')
CREATE INDEX gateway_outbox_attempt_row ON gateway_outbox_attempt (relay, row_key);
-- no index on cycle_id: a cycle's rows are found through (relay, row_key); one more index on a random key cost a
-- quarter of the insert of a cycle's attempts (the hot write of the attempt log). An earlier version's index goes.
DROP INDEX IF EXISTS gateway_outbox_attempt_cycle ON gateway_outbox_attempt;
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'gateway_outbox_attempt_time')
CREATE INDEX gateway_outbox_attempt_time ON gateway_outbox_attempt (relay, attempted_at);
-- gateway_outbox_cycle: one row per finished relay cycle of the attempt log: the broker's answer (observation, detail)
-- for the cycle's attempts still SENT and their mark state (ROLLED_BACK: the cycle's transaction rolled back), written
-- instead of updating each attempt; an attempt's own observation or mark (REFUSED, DEFERRED, parked, ...) stays on its
-- row. A cycle without a row here never finished: its attempts read SENT/NONE. Added after gateway_outbox_attempt:
-- an attempt log from before it keeps its rows' own finish and reads unchanged.
IF OBJECT_ID(N'gateway_outbox_cycle', N'U') IS NULL
CREATE TABLE gateway_outbox_cycle (
    cycle_id      NVARCHAR(36)   NOT NULL PRIMARY KEY,
    relay         NVARCHAR(64)   NOT NULL,
    observation   NVARCHAR(16)   NOT NULL,
    mark_state    NVARCHAR(16)   NOT NULL,
    detail        NVARCHAR(2000) NULL,
    transaction_mode NVARCHAR(8)   NULL,
    attempted_at  DATETIMEOFFSET NOT NULL
);
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = N'gateway_outbox_cycle_time')
CREATE INDEX gateway_outbox_cycle_time ON gateway_outbox_cycle (relay, attempted_at);
