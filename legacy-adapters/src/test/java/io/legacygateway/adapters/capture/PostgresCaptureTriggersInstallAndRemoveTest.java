package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresCaptureTriggersInstallAndRemoveTest extends CaptureTriggersInstallAndRemoveContractTest {

    @Override
    String createCustomers() {
        return "CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL, email VARCHAR(200))";
    }
}
