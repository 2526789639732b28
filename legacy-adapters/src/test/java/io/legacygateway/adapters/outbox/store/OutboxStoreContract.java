package io.legacygateway.adapters.outbox.store;

import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.testsupport.ContractDatabaseTest;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * What every {@link OutboxStore} contract test stands on: a schema of its own with the gateway's relay tables, created
 * once per class on the subclass's database and dropped after it, and an outbox emptied before each test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OutboxStoreContract implements ContractDatabaseTest {

    static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    TestSchema schema;
    OutboxFixture outbox;

    @BeforeAll
    void createSchema() {
        schema = TestSchema.create(database(), getClass(), GatewaySchema.RELAY);
        outbox = new OutboxFixture(schema);
    }

    @AfterAll
    void dropSchema() throws Exception {
        schema.close();
    }

    @BeforeEach
    void empty() {
        outbox.clear();
    }
}
