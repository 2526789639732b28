package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2RejectionLogTest extends RejectionLogContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }
}
