package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbOutboxStoreRetryAndParkTest extends OutboxStoreRetryAndParkContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
