package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbAttemptLogTest extends AttemptLogContractTest {
}
