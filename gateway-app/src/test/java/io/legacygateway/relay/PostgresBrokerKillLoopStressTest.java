package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link BrokerKillLoopStressTest} with the outbox, the inbox and the effect on PostgreSQL. */
class PostgresBrokerKillLoopStressTest extends BrokerKillLoopStressTest {

    @DynamicPropertySource
    static void databasesAndBrokerPair(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES, PostgresBrokerKillLoopStressTest.class);
        LegacyDatabases.register(registry, "target", TestDatabase.POSTGRES, PostgresBrokerKillLoopStressTest.class);
        registerPair(registry);
    }

    @AfterAll
    static void stopThePair() {
        closePair();
    }

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
