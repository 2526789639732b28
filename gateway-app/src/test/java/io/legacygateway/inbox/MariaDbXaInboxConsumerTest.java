package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TestDatabase;
import io.legacygateway.testsupport.XaTransactionLog;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbXaInboxConsumerTest extends XaInboxConsumerContractTest {

    @DynamicPropertySource
    static void targetDatabaseAndBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.MARIADB, MariaDbXaInboxConsumerTest.class);
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }
}
