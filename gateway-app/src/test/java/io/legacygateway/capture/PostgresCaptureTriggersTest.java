package io.legacygateway.capture;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresCaptureTriggersTest extends CaptureTriggersContractTest {

    @Override
    protected String createCustomers() {
        return "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200), avatar BYTEA, joined TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP)";
    }

    @Override
    protected String createVisits() {
        return "CREATE TABLE visits (customer_id BIGINT, at TIMESTAMP)";
    }
}
