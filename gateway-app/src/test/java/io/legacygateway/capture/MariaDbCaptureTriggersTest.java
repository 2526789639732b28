package io.legacygateway.capture;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbCaptureTriggersTest extends CaptureTriggersContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB, MariaDbCaptureTriggersTest.class);
    }

    @Override
    protected String createCustomers() {
        return "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200), avatar BLOB, joined DATETIME(6) DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB";
    }

    @Override
    protected String createVisits() {
        return "CREATE TABLE visits (customer_id BIGINT, at DATETIME) ENGINE=InnoDB";
    }
}
