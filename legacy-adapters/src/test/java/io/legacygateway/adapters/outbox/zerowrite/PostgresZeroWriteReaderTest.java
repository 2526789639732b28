package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresZeroWriteReaderTest extends ZeroWriteReaderContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
