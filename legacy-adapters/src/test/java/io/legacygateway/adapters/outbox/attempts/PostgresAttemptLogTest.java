package io.legacygateway.adapters.outbox.attempts;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresAttemptLogTest extends AttemptLogContractTest {
}
