package io.legacygateway.testsupport;

import io.legacygateway.GatewayApplication;
import io.legacygateway.adapters.outbox.mapping.OutboxRow;
import io.legacygateway.inbox.InboxDeliveryHook;
import io.legacygateway.relay.RelayCycleHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.springframework.boot.SpringApplication;

/**
 * The gateway with a crash built in, run in a process of its own ({@link GatewayProcess#start}): the first relay
 * cycle that reaches the window named by the argument {@code --halt-window=} ends the JVM with {@link Runtime#halt}
 * (no shutdown hook, no transaction completion, as a {@code kill -9}), exit status {@value #STATUS}.
 *
 * <ul>
 *   <li>{@code before-prepare}: claimed and sent, the marks written, nothing prepared yet;</li>
 *   <li>{@code between-prepares}: an XA cycle's first branch prepared, the second not, no record written;</li>
 *   <li>{@code before-commit}: an XA cycle's branches both prepared and the transaction's record written, neither
 *       committed.</li>
 * </ul>
 * One window holds instead of halting: {@code hold-before-broker-commit}. While the file {@value #HOLD} exists in the
 * working directory, the next relay cycle whose batch is sent and about to be committed on the broker deletes it,
 * prints {@code HOLD #<n> relay '<relay>'} ({@code n} counts the holds of this process) and waits until the file
 * {@value #RELEASE} exists, deletes that too and goes on (the relay's fence runs next): the test freezes the process
 * there ({@code kill -STOP}), kills it or ends its database session with the claim's rows locked.
 * The same windows for an inbox consumer's batch with {@code transactionMode: XA}: {@code before-prepare} before its
 * first branch (the broker's) prepares, {@code between-prepares} before the second (the database's),
 * {@code before-commit} before the first branch commits. Without the argument it is the plain gateway.
 */
public final class HaltingGateway {

    public static final int STATUS = 87;
    public static final String ARGUMENT = "--halt-window=";
    /** The file that arms {@code hold-before-broker-commit} for one cycle. */
    public static final String HOLD = "hold";
    /** The file whose presence ends the hold of {@code hold-before-broker-commit}. */
    public static final String RELEASE = "release-hold";

    private HaltingGateway() {
    }

    public static void main(String[] args) {
        String window = Arrays.stream(args).filter(a -> a.startsWith(ARGUMENT))
                .map(a -> a.substring(ARGUMENT.length())).findFirst().orElse("");
        AtomicInteger prepares = new AtomicInteger();
        SpringApplication application = new SpringApplication(GatewayApplication.class);
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("haltingHook",
                new RelayCycleHook() {
                    private final AtomicInteger holds = new AtomicInteger();

                    @Override
                    public void beforeBrokerCommit(String relay) {
                        if (window.equals("hold-before-broker-commit") && deleted(HOLD)) {
                            System.out.println("HOLD #" + holds.incrementAndGet() + " relay '" + relay + "'");
                            System.out.flush();
                            Awaitility.await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(20))
                                    .until(() -> deleted(RELEASE));
                        }
                    }

                    @Override
                    public void afterPublishBeforeMark(String relay, List<OutboxRow> published) {
                        if (window.equals("before-prepare") && !published.isEmpty()) {
                            halt("relay '" + relay + "'", window);
                        }
                    }

                    @Override
                    public void beforeBranchPrepare(String relay) {
                        if (window.equals("between-prepares") && prepares.incrementAndGet() == 2) {
                            halt("relay '" + relay + "'", window);
                        }
                    }

                    @Override
                    public void beforeBranchCommit(String relay) {
                        if (window.equals("before-commit")) {
                            halt("relay '" + relay + "'", window);
                        }
                    }
                }));
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("haltingInboxHook",
                new InboxDeliveryHook() {
                    @Override
                    public void beforeBranchPrepare(String consumer) {
                        int n = prepares.incrementAndGet();
                        if (window.equals("before-prepare") && n == 1 || window.equals("between-prepares") && n == 2) {
                            halt("inbox-consumer '" + consumer + "'", window);
                        }
                    }

                    @Override
                    public void beforeBranchCommit(String consumer) {
                        if (window.equals("before-commit")) {
                            halt("inbox-consumer '" + consumer + "'", window);
                        }
                    }
                }));
        application.run(args);
    }

    /**
     * A gateway process in {@code cwd} with one relay, {@code orders}, of the outbox of datasource {@code legacy} at
     * {@code url} to {@code queue} on the shared standalone broker, holding before its broker commit while the file
     * {@value #HOLD} is in {@code cwd}: the several-gateways tests' way to freeze one while it holds a claimed batch.
     */
    public static GatewayProcess.Running startRelay(Path cwd, String url, String username, String queue, int batchSize,
                                                   Duration claimLease) throws IOException {
        Path routes = Files.createDirectories(cwd.resolve("routes"));
        Files.writeString(routes.resolve("orders.yaml"), String.join("\n",
                "- templatedRoute:",
                "    routeTemplateRef: outbox-relay",
                "    routeId: outbox-relay-orders",
                "    parameters:",
                "      - { name: relay, value: orders }",
                "      - { name: dataSource, value: legacy }",
                "      - { name: destination, value: 'queue:" + queue + "' }",
                "      - { name: batchSize, value: '" + batchSize + "' }",
                "      - { name: pollInterval, value: 100ms }",
                "      - { name: maxBackoff, value: 1s }",
                "      - { name: publishTimeout, value: 2s }",
                "      - { name: claimLease, value: " + claimLease.toSeconds() + "s }", ""));
        return GatewayProcess.start(HaltingGateway.class, cwd, "--spring.profiles.active=test",
                "--gateway.datasources.legacy.url=" + url,
                "--gateway.datasources.legacy.username=" + username,
                "--gateway.datasources.legacy.password=",
                "--spring.artemis.mode=native", "--spring.artemis.embedded.enabled=false",
                "--spring.artemis.broker-url=" + StandaloneArtemis.shared().url(),
                "--spring.artemis.user=" + StandaloneArtemis.GATEWAY_USER, "--spring.artemis.password=gateway",
                "--camel.main.routes-include-pattern=file:" + routes + "/*.yaml",
                ARGUMENT + "hold-before-broker-commit");
    }

    private static boolean deleted(String file) {
        try {
            return Files.deleteIfExists(Path.of(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void halt(String who, String window) {
        System.out.println("HALT " + who + " " + window);
        System.out.flush();
        Runtime.getRuntime().halt(STATUS);
    }
}
