package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** {@link BrokerKillLoopStressTest} with the outbox, the inbox and the effect on MariaDB. */
class MariaDbBrokerKillLoopStressTest extends BrokerKillLoopStressTest {

    @DynamicPropertySource
    static void databasesAndBrokerPair(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB, MariaDbBrokerKillLoopStressTest.class);
        LegacyDatabases.register(registry, "target", TestDatabase.MARIADB, MariaDbBrokerKillLoopStressTest.class);
        registerPair(registry);
    }

    @AfterAll
    static void stopThePair() {
        closePair();
    }

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
