-- The gateway's default outbox table for MariaDB 10.6+ / MySQL 8.0+ (InnoDB).
-- Applied only when asked (gateway.datasources.<name>.initialize-schema=true, or by hand).
-- Times are DATETIME(6) in UTC: keep the server's and the gateway's time zone at UTC (TIMESTAMP ends in 2038).
CREATE TABLE IF NOT EXISTS outbox (
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
    UNIQUE KEY uk_outbox_id (id),
    -- the claim's index: MariaDB has no partial indexes; the status leads, so the claim reads the PENDING range in
    -- outbox order and never the published rows (MariaDB's claim plan follows the index, not the row statistics)
    KEY ix_outbox_claim (status, seq),
    KEY ix_outbox_aggregate (aggregate_id, status, seq),
    KEY ix_outbox_retry (next_retry_at)  -- rows waiting for a retry: the claim skips the later rows of their aggregates
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
-- tables created by an earlier version of this script
CREATE INDEX IF NOT EXISTS ix_outbox_retry ON outbox (next_retry_at);
