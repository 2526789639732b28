package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresOutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
