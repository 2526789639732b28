package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbAttemptLogFinishCommitsWithTheMarkTest extends AttemptLogFinishCommitsWithTheMarkContractTest {
}
