package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.OnH2;

@OnH2
class H2RejectionLogTest extends RejectionLogContractTest {
}
