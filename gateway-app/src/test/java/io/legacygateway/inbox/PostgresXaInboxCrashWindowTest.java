package io.legacygateway.inbox;

import io.legacygateway.testsupport.TestDatabase;

class PostgresXaInboxCrashWindowTest extends XaInboxCrashWindowContractTest {

    @Override
    protected TestDatabase database() {
        return TestDatabase.POSTGRES;
    }
}
