-- Audit trail of operator actions (dead-letter redelivery, retry of FAILED rows, ...): who, when, what, how many.
-- Lives in the datasource named by gateway.operations.data-source. Rows are only ever inserted.
CREATE TABLE IF NOT EXISTS gateway_operation_audit (
    id          BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    at          DATETIME(6) NOT NULL,
    actor       VARCHAR(255) NOT NULL,
    operation   VARCHAR(64)  NOT NULL,
    target      VARCHAR(255) NOT NULL,
    selection   TEXT,
    dry_run     BOOLEAN NOT NULL,
    affected    INTEGER NOT NULL,
    detail      TEXT
);
