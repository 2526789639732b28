package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbOutboxStoreClaimAndMarkTest extends OutboxStoreClaimAndMarkContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
