package io.legacygateway.relay;

import io.legacygateway.testsupport.OnPostgres;

@OnPostgres
class PostgresCrashAfterPublishBeforeMarkTest extends CrashAfterPublishBeforeMarkTest {
}
