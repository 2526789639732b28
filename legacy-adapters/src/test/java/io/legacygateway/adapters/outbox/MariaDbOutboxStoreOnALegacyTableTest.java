package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbOutboxStoreOnALegacyTableTest extends OutboxStoreOnALegacyTableContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
