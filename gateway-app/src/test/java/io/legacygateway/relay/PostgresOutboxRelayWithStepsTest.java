package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import java.util.Map;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The relay's whole contract with steps configured on every relay: a filter that lets every event through and a
 * transform that hands the data on as text, so that each event takes the steps' path (exposed, shaped, sealed
 * again) and must still come out as the contract says.
 */
class PostgresOutboxRelayWithStepsTest extends OutboxRelayContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES, PostgresOutboxRelayWithStepsTest.class);
    }

    @Override
    protected Map<String, Object> stepParameters() {
        return Map.of("filter", "simple:${header.ce_id} != null", "transform", "simple:${body}");
    }
}
