package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresHeldHotAggregateDoesNotStallOtherRelaysTest extends HeldHotAggregateDoesNotStallOtherRelaysTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES,
                PostgresHeldHotAggregateDoesNotStallOtherRelaysTest.class);
    }
}
