package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbOutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
