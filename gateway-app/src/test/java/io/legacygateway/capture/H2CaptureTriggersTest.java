package io.legacygateway.capture;

import io.legacygateway.testsupport.OnH2;

@OnH2
class H2CaptureTriggersTest extends CaptureTriggersContractTest {

    @Override
    protected String createCustomers() {
        return "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200), avatar VARBINARY(1000), joined TIMESTAMP WITH TIME ZONE DEFAULT CURRENT_TIMESTAMP)";
    }

    @Override
    protected String createVisits() {
        return "CREATE TABLE visits (customer_id BIGINT, at TIMESTAMP)";
    }
}
