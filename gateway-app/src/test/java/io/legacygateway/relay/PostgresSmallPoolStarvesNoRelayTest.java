package io.legacygateway.relay;

import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** On Postgres, wakeUp NOTIFY. */
class PostgresSmallPoolStarvesNoRelayTest extends SmallPoolStarvesNoRelayTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        register(registry, TestDatabase.POSTGRES, PostgresSmallPoolStarvesNoRelayTest.class);
    }

    @Override
    String wakeUp() {
        return "NOTIFY";
    }

    @Override
    TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
