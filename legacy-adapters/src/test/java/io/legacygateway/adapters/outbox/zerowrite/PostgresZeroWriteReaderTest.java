package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresZeroWriteReaderTest extends ZeroWriteReaderContractTest {
}
