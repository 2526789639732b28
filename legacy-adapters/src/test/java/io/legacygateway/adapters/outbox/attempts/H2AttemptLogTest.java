package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class H2AttemptLogTest extends AttemptLogContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.H2;
    }
}
