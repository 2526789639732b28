package io.legacygateway.config;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresInitializeSchemaCreatesOnlyWhatIsConfiguredTest extends InitializeSchemaCreatesOnlyWhatIsConfiguredContractTest {

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) {
        register(registry, TestDatabase.POSTGRES, PostgresInitializeSchemaCreatesOnlyWhatIsConfiguredTest.class);
    }

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
