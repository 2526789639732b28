package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresInboxStoreTest extends InboxStoreContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
