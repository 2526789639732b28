package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

/** {@link BrokerKillLoopStressTest} with the outbox, the inbox and the effect on PostgreSQL. */
@OnPostgres(dataSource = {"legacy", "target"})
class PostgresBrokerKillLoopStressTest extends BrokerKillLoopStressTest {
}
