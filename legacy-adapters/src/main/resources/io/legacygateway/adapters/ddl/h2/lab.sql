-- The reconciliation lab's own tables (java -jar gateway-app.jar lab): a small orders table and an outbox
-- with the default columns. Created by the lab in the datasource it runs against; nothing else uses them.
CREATE TABLE IF NOT EXISTS gateway_lab_orders (
    id         VARCHAR(64) PRIMARY KEY,
    status     VARCHAR(32) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS gateway_lab_outbox (
    seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id             VARCHAR(64)  DEFAULT CAST(RANDOM_UUID() AS VARCHAR) NOT NULL,
    aggregate_type VARCHAR(255) NOT NULL,
    aggregate_id   VARCHAR(255) NOT NULL,
    event_type     VARCHAR(255) NOT NULL,
    event_version  INTEGER      DEFAULT 1 NOT NULL,
    payload        CLOB         NOT NULL,
    status         VARCHAR(16)  DEFAULT 'PENDING' NOT NULL,
    retry_count    INTEGER      DEFAULT 0 NOT NULL,
    created_at     TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL,
    published_at   TIMESTAMP WITH TIME ZONE,
    last_error     CLOB,
    correlation_id VARCHAR(255),
    causation_id   VARCHAR(255),
    trace_id       VARCHAR(64),
    next_retry_at  TIMESTAMP WITH TIME ZONE,
    locked_by      VARCHAR(255),
    locked_until   TIMESTAMP WITH TIME ZONE,
    occurred_at    TIMESTAMP WITH TIME ZONE,
    CONSTRAINT uk_gateway_lab_outbox_id UNIQUE (id)
);
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_claim ON gateway_lab_outbox (status, seq);
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_aggregate ON gateway_lab_outbox (aggregate_id, status, seq);
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_retry ON gateway_lab_outbox (next_retry_at);
