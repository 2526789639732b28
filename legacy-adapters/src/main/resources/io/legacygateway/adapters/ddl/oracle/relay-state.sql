-- The gateway's own tables for relays on Oracle (NOT TESTED HERE). Run once by hand.
CREATE TABLE gateway_outbox_position (
    relay        VARCHAR2(64)  PRIMARY KEY,
    source_table VARCHAR2(300) NOT NULL,
    window_low   VARCHAR2(64),
    window_high  VARCHAR2(64),
    after_order  VARCHAR2(255),
    after_key    VARCHAR2(255),
    updated_at   TIMESTAMP WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL
);
CREATE TABLE gateway_outbox_rejection (
    source_table VARCHAR2(300)  NOT NULL,
    row_key      VARCHAR2(255)  NOT NULL,
    relay        VARCHAR2(64)   NOT NULL,
    event_id     VARCHAR2(255),
    reason       VARCHAR2(2000) NOT NULL,
    rejected_at  TIMESTAMP WITH TIME ZONE DEFAULT SYSTIMESTAMP NOT NULL,
    attempts     NUMBER(10) DEFAULT 1 NOT NULL,
    state        VARCHAR2(16) DEFAULT 'FAILED' NOT NULL,
    next_retry_at TIMESTAMP WITH TIME ZONE,
    PRIMARY KEY (source_table, row_key)
);
-- gateway_outbox_attempt: the relay's attempt log, one row per row per cycle that tried to publish it (written in
-- transactions of their own, so that a cycle which rolls back or dies still leaves its evidence): what was observed
-- from the broker (SENT: no answer recorded, CONFIRMED, REFUSED, DEFERRED, FAILED: the batch failed as a whole, OUTCOME_UNKNOWN: its commit failed without an answer (may have delivered),
-- NOT_SENT: the row could not become an event, DUPLICATE: the broker already held it and the relay has no record of
-- sending it, FILTERED: a step of the relay dropped it and the row was marked done) and the mark state once the cycle ended (NONE: it never ended,
-- PUBLISHED, RETRY, FAILED, ROLLED_BACK). The reconciliation report is derived from it. Kept for
-- gateway.reconciliation.attempt-retention.
CREATE TABLE gateway_outbox_attempt (
    id            NUMBER(19) GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    relay         VARCHAR2(64)   NOT NULL,
    cycle_id      VARCHAR2(36)   NOT NULL,
    row_key       VARCHAR2(255)  NOT NULL,
    event_id      VARCHAR2(255),
    aggregate_key VARCHAR2(600),
    attempted_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    instance      VARCHAR2(255)  NOT NULL,
    observation   VARCHAR2(16)   NOT NULL,
    mark_state    VARCHAR2(16)   DEFAULT 'NONE' NOT NULL,
    detail        VARCHAR2(2000)
);
CREATE INDEX gateway_outbox_attempt_row ON gateway_outbox_attempt (relay, row_key);
-- no index on cycle_id: a cycle's rows are found through (relay, row_key); one more index on a random key cost a
-- quarter of the insert of a cycle's attempts (the hot write of the attempt log). An earlier version's index
-- gateway_outbox_attempt_cycle can be dropped.
CREATE INDEX gateway_outbox_attempt_time ON gateway_outbox_attempt (relay, attempted_at);
-- gateway_outbox_cycle: one row per finished relay cycle of the attempt log: the broker's answer (observation, detail)
-- for the cycle's attempts still SENT and their mark state (ROLLED_BACK: the cycle's transaction rolled back), written
-- instead of updating each attempt; an attempt's own observation or mark (REFUSED, DEFERRED, parked, ...) stays on its
-- row. A cycle without a row here never finished: its attempts read SENT/NONE. Added after gateway_outbox_attempt:
-- an attempt log from before it keeps its rows' own finish and reads unchanged.
CREATE TABLE gateway_outbox_cycle (
    cycle_id      VARCHAR2(36)   PRIMARY KEY,
    relay         VARCHAR2(64)   NOT NULL,
    observation   VARCHAR2(16)   NOT NULL,
    mark_state    VARCHAR2(16)   NOT NULL,
    detail        VARCHAR2(2000),
    transaction_mode VARCHAR2(8),
    attempted_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX gateway_outbox_cycle_time ON gateway_outbox_cycle (relay, attempted_at);
