package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbOutboxRelayXaTest extends XaModeOutboxRelayContractTest {
}
