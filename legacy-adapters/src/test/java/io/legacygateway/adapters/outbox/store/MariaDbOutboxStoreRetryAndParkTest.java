package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbOutboxStoreRetryAndParkTest extends OutboxStoreRetryAndParkContractTest {
}
