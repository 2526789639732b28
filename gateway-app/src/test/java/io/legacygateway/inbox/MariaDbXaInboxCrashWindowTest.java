package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbXaInboxCrashWindowTest extends XaInboxCrashWindowContractTest {
}
