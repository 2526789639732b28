package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;

@OnMariaDb
class MariaDbCrashAfterPublishBeforeMarkTest extends CrashAfterPublishBeforeMarkTest {
}
