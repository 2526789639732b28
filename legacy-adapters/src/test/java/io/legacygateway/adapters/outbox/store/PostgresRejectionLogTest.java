package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresRejectionLogTest extends RejectionLogContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
