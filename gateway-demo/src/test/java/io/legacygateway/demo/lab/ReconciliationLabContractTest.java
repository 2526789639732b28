package io.legacygateway.demo.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.reconciliation.Reconciliation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * The {@code lab} command against a real database and the embedded broker: each of the four probes is classified as
 * Durable Outbox Reconciliation Record v1 expects, and the command exits 0. Run twice, to show that a second run on the
 * same tables and broker gives the same answers.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class ReconciliationLabContractTest {

    @Autowired
    ApplicationContext context;

    @Test
    void everyProbeIsClassifiedAsTheRecordExpectsAndTheCommandExitsZero() throws Exception {
        for (int run = 1; run <= 2; run++) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            int status = GatewayCli.execute(new LabCommand(), List.of("--data-source=legacy"), CommandBeans.of(context),
                    new PrintStream(bytes, true, StandardCharsets.UTF_8));
            String out = bytes.toString(StandardCharsets.UTF_8);
            assertThat(status).as("run %d exit status; output:%n%s", run, out).isZero();
            assertThat(out).contains(
                    "Probe 1/4 baseline_transactional_outbox_commit",
                    "a failure before commit of order O-1002 left 0 order row(s) and 0 intent row(s)",
                    "expected DOMAIN_AND_INTENT_COMMITTED, classified DOMAIN_AND_INTENT_COMMITTED: PASS",
                    "Probe 2/4 direct_dual_write_publish_failure",
                    "expected DUAL_WRITE_GAP_OBSERVED, classified DUAL_WRITE_GAP_OBSERVED: PASS",
                    "Probe 3/4 relay_publish_before_mark_crash_retry",
                    "delivery log (attempt log): [evt-order-O-3001-confirmed CONFIRMED/ROLLED_BACK,"
                            + " evt-order-O-3001-confirmed CONFIRMED/PUBLISHED]",
                    "on the queue: [evt-order-O-3001-confirmed] (the broker's duplicate-id cache",
                    "expected DUPLICATE_DELIVERY_CANDIDATE, classified DUPLICATE_DELIVERY_CANDIDATE: PASS",
                    "Probe 4/4 reconciliation_old_pending_intent",
                    "after the reconciliation the row is still PENDING",
                    "expected STUCK_INTENT_DETECTED, classified STUCK_INTENT_DETECTED: PASS",
                    "Lab: 4/4 probes classified as expected");
            for (String field : List.of("Intent ID:", "Aggregate Key:", "Domain Commit:", "Outbox Commit:",
                    "Relay Attempt:", "Publish Observation:", "Mark State:", "Age:", "Reconciliation Decision:",
                    "Residual Consumer Risk:")) {
                assertThat(out.split(field, -1)).as(field + " in each of the four records").hasSize(5);
            }
            assertThat(out).doesNotContain("(missing)");
        }
    }
}
