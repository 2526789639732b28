package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

/** {@link BrokerKillLoopStressTest} with the outbox, the inbox and the effect on MariaDB. */
@OnMariaDb(dataSource = {"legacy", "target"})
class MariaDbBrokerKillLoopStressTest extends BrokerKillLoopStressTest {
}
