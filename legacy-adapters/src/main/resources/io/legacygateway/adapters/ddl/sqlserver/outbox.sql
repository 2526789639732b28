-- The gateway's default outbox table for SQL Server 2016+ (NOT TESTED HERE: provided for users to verify on their own
-- database). Idempotent; applied by hand by the schema owner.
IF OBJECT_ID(N'outbox', N'U') IS NULL
CREATE TABLE outbox (
    seq            BIGINT IDENTITY(1,1) PRIMARY KEY,
    id             NVARCHAR(64)   NOT NULL CONSTRAINT df_outbox_id DEFAULT LOWER(CONVERT(NVARCHAR(36), NEWID())),
    aggregate_type NVARCHAR(255)  NOT NULL,
    aggregate_id   NVARCHAR(255)  NOT NULL,
    event_type     NVARCHAR(255)  NOT NULL,
    event_version  INT            NOT NULL CONSTRAINT df_outbox_version DEFAULT 1,
    payload        NVARCHAR(MAX)  NOT NULL,
    status         NVARCHAR(16)   NOT NULL CONSTRAINT df_outbox_status DEFAULT 'PENDING',
    retry_count    INT            NOT NULL CONSTRAINT df_outbox_retry DEFAULT 0,
    created_at     DATETIMEOFFSET NOT NULL CONSTRAINT df_outbox_created DEFAULT SYSDATETIMEOFFSET(),
    published_at   DATETIMEOFFSET NULL,
    last_error     NVARCHAR(4000) NULL,
    correlation_id NVARCHAR(255)  NULL,
    causation_id   NVARCHAR(255)  NULL,
    trace_id       NVARCHAR(64)   NULL,
    next_retry_at  DATETIMEOFFSET NULL,
    locked_by      NVARCHAR(255)  NULL,
    locked_until   DATETIMEOFFSET NULL,
    occurred_at    DATETIMEOFFSET NULL,
    CONSTRAINT uk_outbox_id UNIQUE (id)
);
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = 'ix_outbox_claim')
CREATE INDEX ix_outbox_claim ON outbox (status, seq);
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = 'ix_outbox_aggregate')
CREATE INDEX ix_outbox_aggregate ON outbox (aggregate_id, status, seq);
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE name = 'ix_outbox_retry')
CREATE INDEX ix_outbox_retry ON outbox (next_retry_at) WHERE next_retry_at IS NOT NULL;
