package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbOutboxStoreOnALegacyTableTest extends OutboxStoreOnALegacyTableContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
