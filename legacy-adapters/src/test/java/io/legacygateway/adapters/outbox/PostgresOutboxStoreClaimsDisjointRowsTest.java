package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresOutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {
}
