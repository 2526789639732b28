package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.legacygateway.broker.BrokerConnections;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * The readiness check of the broker ends, DOWN, when no broker answers, with the client settings of an HA deployment
 * that wait for a broker without limit ({@code initialConnectAttempts=-1}): before, a check against such a URL with
 * both brokers down never returned, and one that connected while the broker died waited for the cluster topology
 * until {@code callTimeout} (17 s seen in CI), holding every probe and the metric sampler behind it.
 */
class BrokerCheckEndsWhenNoBrokerAnswersTest {

    private static final String WAITS_FOREVER = "?ha=true&reconnectAttempts=-1&initialConnectAttempts=-1";
    /** Far above the bound (3 s per call), far below a wait without limit or callTimeout's 30 s. */
    private static final Duration ENDS_WITHIN = Duration.ofSeconds(20);

    @Test
    void nothingListeningIsDownInsteadOfAConnectionAttemptWithoutEnd() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Health health = check("tcp://127.0.0.1:" + port + WAITS_FOREVER);

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsKey("error");
    }

    @Test
    void aBrokerThatAcceptsButNeverAnswersIsDownAfterTheBound() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>(); // added by the acceptor, closed by the test
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        held.add(silent.accept()); // read nothing, answer nothing
                    }
                } catch (Exception closed) {
                    // the test ended
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();

            Health health = check("tcp://127.0.0.1:" + silent.getLocalPort() + WAITS_FOREVER);

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static Health check(String url) {
        ActiveMQConnectionFactory configured = new ActiveMQConnectionFactory(url);
        GatewayHealthIndicators.Broker broker = new GatewayHealthIndicators.Broker(
                BrokerConnections.checkingFactory(configured, GatewayHealthIndicators.Broker.CHECK_BOUND),
                Duration.ZERO);
        return assertTimeoutPreemptively(ENDS_WITHIN, () -> broker.getHealth(true));
    }
}
