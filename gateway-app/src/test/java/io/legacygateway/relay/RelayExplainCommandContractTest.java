package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.config.GatewayDataSources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@code relay explain <relay>} against a real schema of each database (the gateway's default DDL): the relay is read
 * from route YAML that no route runs, its statements are printed with their binds, and the database's plans for the
 * claim, the ordering check and the mark follow, with the index the claim reads. Each database's subclass asserts
 * its verdict on that index.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = "gateway-cli.command=true")
@ActiveProfiles("test")
abstract class RelayExplainCommandContractTest {

    private static final AtomicInteger RELAYS = new AtomicInteger();

    @Autowired
    ApplicationContext context;

    @Autowired
    GatewayDataSources dataSources;

    @TempDir
    Path routes;

    record Run(int exit, String output) {
    }

    JdbcTemplate legacy() {
        return new JdbcTemplate(dataSources.get("legacy", "legacy"));
    }

    /** Runs the command for a new relay on the default outbox, with the route file in a folder of its own. */
    Run explain() throws Exception {
        String relay = "explain-" + RELAYS.incrementAndGet();
        Files.writeString(routes.resolve(relay + ".yaml"), """
                - templatedRoute:
                    routeTemplateRef: outbox-relay
                    parameters:
                      - name: relay
                        value: %s
                      - name: dataSource
                        value: legacy
                      - name: destination
                        value: queue:explain.orders
                """.formatted(relay));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            exit = GatewayCli.execute(new RelayExplainCommand(), List.of(relay, "--routes=file:" + routes + "/*.yaml"),
                    CommandBeans.of(context), out);
        }
        return new Run(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    void insertPending(int rows) {
        for (int i = 0; i < rows; i++) {
            legacy().update("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload) VALUES"
                    + " ('Order', ?, 'OrderCreated', '{}')", "order-" + (i % 7));
        }
    }

    @Test
    void printsEveryStatementWithItsBindsAndThePlansOfClaimCheckAndMark() throws Exception {
        insertPending(5);
        Run run = explain();
        assertThat(run.output()).contains("-- claim\n", "-- waitingCountUpTo\n", "-- firstWaitingNotHeld\n",
                "-- markPublished\n", "-- recordFailure.retry\n", "-- recordFailure.parked\n", "-- waiting\n",
                "the most rows to return [limit]", "the rows' keys (one ? each) [keys]",
                "-- plan of claim (example binds: now ", "-- plan of waitingCountUpTo",
                "-- plan of firstWaitingNotHeld",
                "-- plan of markPublished (example binds: the keys of the first 5 waiting rows)", "claim index: ");
        assertThat(run.output()).as("the claim as the cycle runs it").contains("FOR UPDATE SKIP LOCKED");
    }

    @Test
    void anUnknownRelayIsNamedWithTheRelaysFound() throws Exception {
        explain();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> GatewayCli.execute(new RelayExplainCommand(),
                    List.of("nobody", "--routes=file:" + routes + "/*.yaml"), CommandBeans.of(context), out))
                    .hasMessageStartingWith("no outbox-relay named 'nobody' in file:")
                    .hasMessageContaining("(relays: explain-");
        }
    }
}
