package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2OutboxStoreOnALegacyTableTest extends OutboxStoreOnALegacyTableContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }
}
