package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class MariaDbAttemptLogTest extends AttemptLogContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.MARIADB;
    }
}
