-- The reconciliation lab's own tables (java -jar gateway-app.jar lab): a small orders table and an outbox
-- with the default columns. Created by the lab in the datasource it runs against; nothing else uses them.
CREATE TABLE IF NOT EXISTS gateway_lab_orders (
    id         VARCHAR(64) PRIMARY KEY,
    status     VARCHAR(32) NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE IF NOT EXISTS gateway_lab_outbox (
    seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- outbox order and row key
    id             VARCHAR(64)  NOT NULL DEFAULT gen_random_uuid()::text,  -- event id: CloudEvents id, _AMQ_DUPL_ID
    aggregate_type VARCHAR(255) NOT NULL,
    aggregate_id   VARCHAR(255) NOT NULL,
    event_type     VARCHAR(255) NOT NULL,
    event_version  INTEGER      NOT NULL DEFAULT 1,
    payload        TEXT         NOT NULL,  -- JSON text, kept byte for byte (jsonb would reorder keys)
    status         VARCHAR(16)  NOT NULL DEFAULT 'PENDING',  -- PENDING, PUBLISHED, FAILED
    retry_count    INTEGER      NOT NULL DEFAULT 0,
    created_at     TIMESTAMPTZ  NOT NULL DEFAULT CURRENT_TIMESTAMP,
    published_at   TIMESTAMPTZ,
    last_error     TEXT,
    correlation_id VARCHAR(255),
    causation_id   VARCHAR(255),
    trace_id       VARCHAR(64),   -- W3C traceparent, or a 32-hex trace id
    next_retry_at  TIMESTAMPTZ,
    locked_by      VARCHAR(255),  -- relay instance that published the row
    locked_until   TIMESTAMPTZ,   -- reserved for lease-based claiming; the relay claims with row locks
    occurred_at    TIMESTAMPTZ,
    CONSTRAINT uk_gateway_lab_outbox_id UNIQUE (id)
);
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_claim ON gateway_lab_outbox (status, seq);
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_aggregate ON gateway_lab_outbox (aggregate_id, status, seq);
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_retry ON gateway_lab_outbox (next_retry_at) WHERE next_retry_at IS NOT NULL;
