package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresOutboxStoreOnALegacyTableTest extends OutboxStoreOnALegacyTableContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
