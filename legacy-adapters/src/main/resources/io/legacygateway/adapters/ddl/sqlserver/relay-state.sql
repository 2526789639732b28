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
