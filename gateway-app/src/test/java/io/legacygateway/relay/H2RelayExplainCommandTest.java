package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.OnH2;
import org.junit.jupiter.api.Test;

@OnH2
class H2RelayExplainCommandTest extends RelayExplainCommandContractTest {

    @Test
    void theClaimReadsTheIndexThatLeadsWithTheStatus() throws Exception {
        insertPending(3);
        Run run = explain();
        assertThat(run.output()).contains("claim index: IX_OUTBOX_CLAIM holds only waiting rows (columns: STATUS, SEQ)");
        assertThat(run.exit()).isZero();
    }
}
