package io.legacygateway.demo.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.testsupport.LegacyDatabases;
import io.legacygateway.testsupport.TestDatabase;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The lab is a check, not a show: with thresholds under which a two-hour-old intent with three failed attempts is not
 * stuck, probe 4 is classified differently from the record's expectation, and the command exits 1. PostgreSQL.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "gateway.reconciliation.stuck-after=3h", "gateway.reconciliation.stuck-attempts=4"})
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class LabExitsNonZeroWhenAClassificationDiffersTest {

    @DynamicPropertySource
    static void legacyDatabase(DynamicPropertyRegistry registry) {
        LegacyDatabases.register(registry, "legacy", TestDatabase.POSTGRES,
                LabExitsNonZeroWhenAClassificationDiffersTest.class);
    }

    @Autowired
    ApplicationContext context;

    @Test
    void aProbeClassifiedOtherwiseFailsTheLab() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = GatewayCli.execute(new LabCommand(), List.of("--data-source=legacy"), CommandBeans.of(context),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(status).as(out).isEqualTo(1);
        assertThat(out).contains("expected STUCK_INTENT_DETECTED, classified DOMAIN_AND_INTENT_COMMITTED: FAIL",
                "Lab: 3/4 probes classified as expected");
    }
}
