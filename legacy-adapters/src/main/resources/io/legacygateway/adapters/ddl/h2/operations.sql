-- Audit trail of operator actions (dead-letter redelivery, retry of FAILED rows, ...): who, when, what, how many.
-- Lives in the datasource named by gateway.operations.data-source. Rows are only ever inserted.
CREATE TABLE IF NOT EXISTS gateway_operation_audit (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          TIMESTAMP WITH TIME ZONE NOT NULL,
    actor       VARCHAR(255) NOT NULL,
    operation   VARCHAR(64)  NOT NULL,
    target      VARCHAR(255) NOT NULL,
    selection   CLOB,
    dry_run     BOOLEAN NOT NULL,
    affected    INTEGER NOT NULL,
    detail      CLOB
);
