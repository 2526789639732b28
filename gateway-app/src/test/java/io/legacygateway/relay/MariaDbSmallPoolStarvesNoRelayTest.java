package io.legacygateway.relay;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** On MariaDb, wakeUp NONE. */
class MariaDbSmallPoolStarvesNoRelayTest extends SmallPoolStarvesNoRelayTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        register(registry, TestDatabase.MARIADB, MariaDbSmallPoolStarvesNoRelayTest.class);
    }

    @Override
    String wakeUp() {
        return "NONE";
    }

    @Override
    TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
