-- The demo's legacy application: an orders table it updates, and the gateway's default outbox it writes in the
-- same transaction (the outbox DDL comes from legacy-adapters).
CREATE TABLE IF NOT EXISTS orders (
    id          VARCHAR(36)   PRIMARY KEY,
    customer_id VARCHAR(36)   NOT NULL,
    amount      DECIMAL(12,2) NOT NULL,
    status      VARCHAR(16)   NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);

-- Its customer master data. The application writes no outbox for it: the gateway's capture triggers do
-- (java -jar gateway-app.jar triggers --table=customers ... --install, which the demo runs at startup).
CREATE TABLE IF NOT EXISTS customers (
    id         VARCHAR(36)  PRIMARY KEY,
    name       VARCHAR(100) NOT NULL,
    email      VARCHAR(200),
    updated_at TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);

-- A dedicated capture table with the default outbox columns the triggers and the relay use.
CREATE TABLE IF NOT EXISTS customer_outbox (
    seq            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id             VARCHAR(64)  DEFAULT CAST(RANDOM_UUID() AS VARCHAR) NOT NULL UNIQUE,
    aggregate_type VARCHAR(255) NOT NULL,
    aggregate_id   VARCHAR(255) NOT NULL,
    event_type     VARCHAR(255) NOT NULL,
    payload        CLOB         NOT NULL,
    status         VARCHAR(16)  DEFAULT 'PENDING' NOT NULL,
    retry_count    INTEGER      DEFAULT 0 NOT NULL,
    last_error     CLOB,
    created_at     TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL,
    published_at   TIMESTAMP WITH TIME ZONE
);

-- The billing module's own event queue, older than the gateway and of its own shape: the relay maps it
-- (routes/demo/outbox-evt-queue.yaml) and stamps DONE_AT (markMode TIMESTAMP). CREATED is a local time without zone.
CREATE TABLE IF NOT EXISTS EVT_QUEUE (
    EVT_NO   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    EVT_KIND VARCHAR(40)   NOT NULL,
    REF_NO   CHAR(12)      NOT NULL,
    BODY     CLOB          NOT NULL,
    CREATED  TIMESTAMP     NOT NULL,
    DONE_AT  TIMESTAMP,
    ERR_TEXT VARCHAR(2000)
);
