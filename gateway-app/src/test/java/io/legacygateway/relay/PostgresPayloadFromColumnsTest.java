package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresPayloadFromColumnsTest extends PayloadFromColumnsContractTest {

    @Override
    protected String createTable(String name) {
        return "CREATE TABLE " + name + " (payment_id BIGINT PRIMARY KEY, customer_id INT NOT NULL,"
                + " amount NUMERIC(5,2) NOT NULL, payment_date TIMESTAMP(6) NOT NULL, paid_at TIMESTAMPTZ, day DATE,"
                + " note VARCHAR(40), code CHAR(4), receipt BYTEA, refunded BOOLEAN, extra JSONB,"
                + " processed_at TIMESTAMP)";
    }

    @Override
    protected String paidAt() {
        return "TIMESTAMPTZ '2007-02-15 21:25:46.5+00'";
    }

    @Override
    protected String golden() {
        return "postgresql.json";
    }
}
