package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.testsupport.OnPostgres;

@OnPostgres
class PostgresInboxStoreTest extends InboxStoreContractTest {
}
