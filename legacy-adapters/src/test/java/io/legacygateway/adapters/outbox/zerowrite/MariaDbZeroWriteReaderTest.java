package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbZeroWriteReaderTest extends ZeroWriteReaderContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
