package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresOutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
