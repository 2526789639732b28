package io.legacygateway.tracing;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresTracesFollowOneEventFromOutboxRowToEffectTest
        extends TracesFollowOneEventFromOutboxRowToEffectContractTest {
}
