package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbOutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
