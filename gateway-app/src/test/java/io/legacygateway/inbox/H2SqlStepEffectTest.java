package io.legacygateway.inbox;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The demo's database, as an extra fast lane: never the only database a guarantee is tested on. */
class H2SqlStepEffectTest extends SqlStepEffectContractTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        register(registry, TestDatabase.H2, H2SqlStepEffectTest.class);
    }
}
