package io.legacygateway.relay;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class PostgresAddressFullIsAnOutageNotEachRowsFailureTest extends AddressFullIsAnOutageNotEachRowsFailureContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES,
                PostgresAddressFullIsAnOutageNotEachRowsFailureTest.class);
    }
}
