package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbOutboxRelayTest extends OutboxRelayContractTest {
}
