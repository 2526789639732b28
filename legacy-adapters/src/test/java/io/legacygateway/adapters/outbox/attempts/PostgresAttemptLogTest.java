package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.testsupport.ContractDatabase;

class PostgresAttemptLogTest extends AttemptLogContractTest {

    @Override
    ContractDatabase database() {
        return ContractDatabase.POSTGRESQL;
    }
}
