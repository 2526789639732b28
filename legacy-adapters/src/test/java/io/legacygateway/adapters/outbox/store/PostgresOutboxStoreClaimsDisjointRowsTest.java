package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresOutboxStoreClaimsDisjointRowsTest extends OutboxStoreClaimsDisjointRowsContractTest {
}
