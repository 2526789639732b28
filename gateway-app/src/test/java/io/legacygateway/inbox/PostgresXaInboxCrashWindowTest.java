package io.legacygateway.inbox;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresXaInboxCrashWindowTest extends XaInboxCrashWindowContractTest {
}
