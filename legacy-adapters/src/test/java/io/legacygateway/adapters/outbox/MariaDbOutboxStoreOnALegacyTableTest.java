package io.legacygateway.adapters.outbox;

import io.legacygateway.adapters.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbOutboxStoreOnALegacyTableTest extends OutboxStoreOnALegacyTableContractTest {
}
