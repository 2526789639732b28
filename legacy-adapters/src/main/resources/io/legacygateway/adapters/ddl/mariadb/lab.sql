-- The reconciliation lab's own tables (java -jar gateway-app.jar lab): a small orders table and an outbox
-- with the default columns. Created by the lab in the datasource it runs against; nothing else uses them.
CREATE TABLE IF NOT EXISTS gateway_lab_orders (
    id         VARCHAR(64) NOT NULL PRIMARY KEY,
    status     VARCHAR(32) NOT NULL,
    created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE IF NOT EXISTS gateway_lab_outbox (
    seq            BIGINT       NOT NULL AUTO_INCREMENT,  -- outbox order and row key
    id             VARCHAR(64)  NOT NULL DEFAULT (UUID()),  -- event id: CloudEvents id, _AMQ_DUPL_ID
    aggregate_type VARCHAR(255) NOT NULL,
    aggregate_id   VARCHAR(255) NOT NULL,
    event_type     VARCHAR(255) NOT NULL,
    event_version  INT          NOT NULL DEFAULT 1,
    payload        LONGTEXT     NOT NULL,
    status         VARCHAR(16)  NOT NULL DEFAULT 'PENDING',
    retry_count    INT          NOT NULL DEFAULT 0,
    created_at     DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    published_at   DATETIME(6)  NULL,
    last_error     TEXT         NULL,
    correlation_id VARCHAR(255) NULL,
    causation_id   VARCHAR(255) NULL,
    trace_id       VARCHAR(64)  NULL,
    next_retry_at  DATETIME(6)  NULL,
    locked_by      VARCHAR(255) NULL,
    locked_until   DATETIME(6)  NULL,
    occurred_at    DATETIME(6)  NULL,
    PRIMARY KEY (seq),
    UNIQUE KEY uk_gateway_lab_outbox_id (id),
    KEY ix_gateway_lab_outbox_claim (status, seq),
    KEY ix_gateway_lab_outbox_aggregate (aggregate_id, status, seq),
    KEY ix_gateway_lab_outbox_retry (next_retry_at)  -- rows waiting for a retry: the claim skips the later rows of their aggregates
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX IF NOT EXISTS ix_gateway_lab_outbox_retry ON gateway_lab_outbox (next_retry_at);
