package io.legacygateway.capture;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresCaptureTriggersTest extends CaptureTriggersContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES, PostgresCaptureTriggersTest.class);
    }

    @Override
    protected String createCustomers() {
        return "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200), avatar BYTEA, joined TIMESTAMPTZ DEFAULT CURRENT_TIMESTAMP)";
    }

    @Override
    protected String createVisits() {
        return "CREATE TABLE visits (customer_id BIGINT, at TIMESTAMP)";
    }
}
