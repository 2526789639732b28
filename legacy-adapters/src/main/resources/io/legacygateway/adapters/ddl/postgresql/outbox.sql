-- The gateway's default outbox table for PostgreSQL 13+.
-- Applied only when asked (gateway.datasources.<name>.initialize-schema=true, or by hand): never to a legacy database
-- behind the owner's back. The legacy application inserts rows (status PENDING); the relay claims, publishes and marks.
CREATE TABLE IF NOT EXISTS outbox (
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
    CONSTRAINT uk_outbox_id UNIQUE (id)
);
-- the claim's index: only waiting rows, in outbox order. Published rows left in place never enter it, so the claim
-- reads the head of this index whatever the statistics say (without it, a planner with stale statistics may walk the
-- primary key and filter out every published row: a drain quadratic in the table's history). The claim writes the
-- pending status as a literal so that this predicate matches it under any cached plan.
CREATE INDEX IF NOT EXISTS ix_outbox_pending ON outbox (seq) WHERE status = 'PENDING';
-- FAILED rows for the backlog sample and the operators' list (few rows; without it each sample scans the table)
CREATE INDEX IF NOT EXISTS ix_outbox_failed ON outbox (seq) WHERE status = 'FAILED';
CREATE INDEX IF NOT EXISTS ix_outbox_aggregate ON outbox (aggregate_id, status, seq);
-- rows waiting for a retry, by aggregate: the claim skips the later rows of their aggregates and finds them here
-- (few rows; partial index), whatever the statistics say. An index of the waiting rows would serve that search too,
-- and a planner with statistics taken while nothing waited chose it: every waiting row read once per claimed row
-- (PostgresClaimBehindABacklogWithStatisticsOfAnEmptyOutboxTest). It replaces ix_outbox_retry (next_retry_at), which
-- a planner without statistics passed over for ix_outbox_aggregate: the aggregate's whole history per claimed row.
CREATE INDEX IF NOT EXISTS ix_outbox_retrying ON outbox (aggregate_id, seq) WHERE next_retry_at IS NOT NULL;
DROP INDEX IF EXISTS ix_outbox_retry;
