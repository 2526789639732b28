package io.legacygateway.inbox;

import io.legacygateway.testsupport.TestDatabase;

class MariaDbXaInboxCrashWindowTest extends XaInboxCrashWindowContractTest {

    @Override
    protected TestDatabase database() {
        return TestDatabase.MARIADB;
    }
}
