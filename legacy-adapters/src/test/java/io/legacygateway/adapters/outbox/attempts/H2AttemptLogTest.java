package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.testsupport.OnH2;

@OnH2
class H2AttemptLogTest extends AttemptLogContractTest {
}
