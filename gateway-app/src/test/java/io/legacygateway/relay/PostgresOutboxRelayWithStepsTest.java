package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;
import java.util.Map;

/**
 * The relay's whole contract with steps configured on every relay: a filter that lets every event through and a
 * transform that hands the data on as text, so that each event takes the steps' path (exposed, shaped, sealed
 * again) and must still come out as the contract says.
 */
@OnPostgres
class PostgresOutboxRelayWithStepsTest extends OutboxRelayContractTest {

    @Override
    protected Map<String, Object> stepParameters() {
        return Map.of("filter", "simple:${header.ce_id} != null", "transform", "simple:${body}");
    }
}
