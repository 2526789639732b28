package io.legacygateway.tracing;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbTracesFollowOneEventFromOutboxRowToEffectTest
        extends TracesFollowOneEventFromOutboxRowToEffectContractTest {
}
