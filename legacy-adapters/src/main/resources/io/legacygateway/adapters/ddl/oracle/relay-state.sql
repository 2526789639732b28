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
