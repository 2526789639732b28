-- The demo's legacy application: an orders table it updates, and the gateway's default outbox it writes in the
-- same transaction (the outbox DDL comes from legacy-adapters).
CREATE TABLE IF NOT EXISTS orders (
    id          VARCHAR(36)   PRIMARY KEY,
    customer_id VARCHAR(36)   NOT NULL,
    amount      DECIMAL(12,2) NOT NULL,
    status      VARCHAR(16)   NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP NOT NULL
);
