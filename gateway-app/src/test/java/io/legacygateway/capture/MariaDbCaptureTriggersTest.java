package io.legacygateway.capture;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbCaptureTriggersTest extends CaptureTriggersContractTest {

    @Override
    protected String createCustomers() {
        return "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200), avatar BLOB, joined DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB";
    }

    @Override
    protected String createVisits() {
        return "CREATE TABLE visits (customer_id BIGINT, at DATETIME) ENGINE=InnoDB";
    }
}
