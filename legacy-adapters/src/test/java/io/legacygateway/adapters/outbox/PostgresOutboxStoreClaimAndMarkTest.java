package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresOutboxStoreClaimAndMarkTest extends OutboxStoreClaimAndMarkContractTest {
}
