package io.legacygateway.inbox;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbSqlStepEffectTest extends SqlStepEffectContractTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        register(registry, TestDatabase.MARIADB, MariaDbSqlStepEffectTest.class);
    }
}
