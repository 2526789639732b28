package io.legacygateway.config;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbInitializeSchemaCreatesOnlyWhatIsConfiguredTest extends InitializeSchemaCreatesOnlyWhatIsConfiguredContractTest {

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) {
        register(registry, TestDatabase.MARIADB, MariaDbInitializeSchemaCreatesOnlyWhatIsConfiguredTest.class);
    }

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
