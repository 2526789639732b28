package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

class H2RelayExplainCommandTest extends RelayExplainCommandContractTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.H2, H2RelayExplainCommandTest.class);
    }

    @Test
    void theClaimReadsTheIndexThatLeadsWithTheStatus() throws Exception {
        insertPending(3);
        Run run = explain();
        assertThat(run.output()).contains("claim index: IX_OUTBOX_CLAIM holds only waiting rows (columns: STATUS, SEQ)");
        assertThat(run.exit()).isZero();
    }
}
