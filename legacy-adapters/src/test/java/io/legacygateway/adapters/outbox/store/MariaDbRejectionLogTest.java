package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbRejectionLogTest extends RejectionLogContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
