package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2OutboxStoreClaimAndMarkTest extends OutboxStoreClaimAndMarkContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }
}
