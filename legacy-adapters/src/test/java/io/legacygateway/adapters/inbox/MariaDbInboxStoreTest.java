package io.legacygateway.adapters.inbox;

import io.legacygateway.adapters.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbInboxStoreTest extends InboxStoreContractTest {
}
