-- The demo's second service: a wallet per customer, in a database of its own (./data/demo/wallet). It is changed only
-- by the inbox consumer of routes/demo/inbox-wallet.yaml, from the order events; the inbox table next to it comes
-- from legacy-adapters (initialize-schema).
CREATE TABLE IF NOT EXISTS customer_wallet (
    customer_id    VARCHAR(36)   PRIMARY KEY,
    orders_created INTEGER       DEFAULT 0 NOT NULL,
    amount_ordered DECIMAL(14,2) DEFAULT 0 NOT NULL,
    orders_paid    INTEGER       DEFAULT 0 NOT NULL,
    amount_paid    DECIMAL(14,2) DEFAULT 0 NOT NULL
);
MERGE INTO customer_wallet (customer_id) KEY (customer_id) VALUES ('alice'), ('bob'), ('carol'), ('dave'), ('erin');
