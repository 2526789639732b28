package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.StandaloneBroker;
import io.legacygateway.testsupport.TestDatabase;
import io.legacygateway.testsupport.XaTransactionLog;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class MariaDbXaDuplicateIdInABatchTest extends XaDuplicateIdInABatchContractTest {

    @DynamicPropertySource
    static void legacyDatabaseAndBroker(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.MARIADB, MariaDbXaDuplicateIdInABatchTest.class);
        StandaloneBroker.register(registry);
        XaTransactionLog.register(registry);
    }
}
