package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbZeroWriteReaderTest extends ZeroWriteReaderContractTest {
}
