-- The reconciliation lab's orders table (java -jar gateway-demo.jar lab). Its outbox, gateway_lab_outbox, is outbox.sql
-- under that name. Created by the lab in the datasource it runs against; nothing else uses them.
CREATE TABLE IF NOT EXISTS gateway_lab_orders (
    id         VARCHAR(64) NOT NULL PRIMARY KEY,
    status     VARCHAR(32) NOT NULL,
    created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
