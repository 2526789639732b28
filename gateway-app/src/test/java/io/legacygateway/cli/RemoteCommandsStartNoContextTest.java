package io.legacygateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.testsupport.GatewayProcess;
import io.legacygateway.testsupport.OnH2;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * The commands that talk to a running gateway ({@code relay}, {@code dlq}, {@code reconcile}) run in a process of
 * their own against a real gateway (this test's, on a random port: H2 legacy database with one relay, embedded broker),
 * with no configuration but {@code --gateway/--user/--password}: they print the gateway's answer and start no Spring
 * context, connection pool, broker client or Camel (none of their classes is loaded) and write nothing where they
 * run. They used to build the gateway's whole context first (20–78 s, and the database password was needed). The
 * elapsed times are printed, not asserted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "camel.main.routes-include-pattern=classpath:cli-test/relay-orders.yaml",
        "gateway.dead-letters.depth-interval=0"})
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@OnH2
class RemoteCommandsStartNoContextTest {

    @LocalServerPort
    int port;

    @TempDir
    Path workDir;

    record Case(String args, int exitCode, String expected) {
    }

    @Test
    void remoteCommandsAnswerFromTheRunningGatewayWithoutStartingAContext() throws Exception {
        List<Case> cases = List.of(
                new Case("relay list", 0, "\"relay\" : \"cli-orders\""),
                new Case("relay failed cli-orders", 0, "[ ]"),
                new Case("dlq list", 0, "Dead-letter address DLA: "),
                new Case("reconcile cli-orders", 0, "Reconciliation report at "),
                new Case("relay list --password=wrong", 1, "error: HTTP 401"),
                new Case("dlq list --gateway=http://127.0.0.1:1", 1,
                        "error: cannot reach the gateway at http://127.0.0.1:1 (--gateway or GATEWAY_URL)"));
        for (Case c : cases) {
            List<String> args = new ArrayList<>(List.of(c.args().split(" ")));
            for (String option : List.of("--gateway=http://127.0.0.1:" + port, "--user=test-operator",
                    "--password=test-operator-secret")) {
                String name = option.substring(0, option.indexOf('=') + 1);
                if (args.stream().noneMatch(a -> a.startsWith(name))) {
                    args.add(option);
                }
            }
            GatewayProcess.Result run = GatewayProcess.run(workDir, Duration.ofSeconds(120),
                    args.toArray(String[]::new));
            System.out.printf("%s: exit %s in %.2f s%n", c.args(), run.exitCode(), run.seconds());

            assertThat(run.exitCode()).as(c.args() + "\n" + run.output()).isEqualTo(c.exitCode());
            assertThat(run.output()).as(c.args()).contains(c.expected())
                    .doesNotContain(" INFO ").doesNotContain(" WARN ").doesNotContain(" ERROR ");
            assertThat(run.loaded("org.springframework.context.", "org.springframework.boot.SpringApplication",
                    "org.apache.camel.", "org.apache.activemq.", "jakarta.jms.", "com.zaxxer.hikari.", "org.h2.",
                    "org.postgresql.", "org.mariadb.", "ch.qos.logback."))
                    .as(c.args() + ": classes of a Spring context, Camel, the broker, a pool, a driver or logging")
                    .isEmpty();
            try (Stream<Path> written = Files.list(workDir)) {
                assertThat(written).as(c.args() + ": files created in the working directory").isEmpty();
            }
        }
    }
}
