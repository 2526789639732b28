package io.legacygateway.inbox;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresInboxStepsCountMessagesTest extends InboxStepsCountMessagesTest {

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "target", TestDatabase.POSTGRES, PostgresInboxStepsCountMessagesTest.class);
    }
}
