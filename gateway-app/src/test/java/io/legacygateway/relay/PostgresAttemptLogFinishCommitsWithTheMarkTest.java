package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresAttemptLogFinishCommitsWithTheMarkTest extends AttemptLogFinishCommitsWithTheMarkContractTest {
}
