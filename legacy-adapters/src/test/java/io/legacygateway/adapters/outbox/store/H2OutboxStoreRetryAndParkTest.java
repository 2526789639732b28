package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2OutboxStoreRetryAndParkTest extends OutboxStoreRetryAndParkContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }
}
