package io.legacygateway.testsupport;

import io.legacygateway.GatewayApplication;
import io.legacygateway.adapters.outbox.OutboxRow;
import io.legacygateway.relay.RelayCycleHook;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
 * Without the argument it is the plain gateway.
 */
public final class HaltingGateway {

    public static final int STATUS = 87;
    public static final String ARGUMENT = "--halt-window=";

    private HaltingGateway() {
    }

    public static void main(String[] args) {
        String window = Arrays.stream(args).filter(a -> a.startsWith(ARGUMENT))
                .map(a -> a.substring(ARGUMENT.length())).findFirst().orElse("");
        AtomicInteger prepares = new AtomicInteger();
        SpringApplication application = new SpringApplication(GatewayApplication.class);
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("haltingHook",
                new RelayCycleHook() {
                    @Override
                    public void afterPublishBeforeMark(String relay, List<OutboxRow> published) {
                        if (window.equals("before-prepare") && !published.isEmpty()) {
                            halt(relay, window);
                        }
                    }

                    @Override
                    public void beforeBranchPrepare(String relay) {
                        if (window.equals("between-prepares") && prepares.incrementAndGet() == 2) {
                            halt(relay, window);
                        }
                    }

                    @Override
                    public void beforeBranchCommit(String relay) {
                        if (window.equals("before-commit")) {
                            halt(relay, window);
                        }
                    }
                }));
        application.run(args);
    }

    private static void halt(String relay, String window) {
        System.out.println("HALT relay '" + relay + "' " + window);
        System.out.flush();
        Runtime.getRuntime().halt(STATUS);
    }
}
