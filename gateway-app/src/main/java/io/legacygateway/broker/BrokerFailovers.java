package io.legacygateway.broker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.jms.ConnectionFactory;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.FailoverEventType;
import org.apache.activemq.artemis.jms.client.ActiveMQConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the gateway makes of a broker failover: every connection of a {@linkplain #watch watched} factory reports its
 * client's failover events here (Artemis {@code FailoverEventListener}), and the relays and inbox consumers report
 * their commits ({@link #committed}). Per {@link Role}, one <em>episode</em> runs from the first failure detected on
 * any of its connections to the first commit of that role afterwards: that is the stall, the time nothing was
 * published (relay) or consumed (inbox).
 *
 * <p>Guaranteed: WARN when an episode starts (the connection, its broker), INFO at each connection's
 * {@code FAILOVER_COMPLETED} (the broker it reached), INFO when the episode ends with the stall, ERROR at each
 * {@code FAILOVER_FAILED} (the connection is lost: the relay rebuilds it, the listener container recovers); counted in
 * {@code gateway_broker_failovers_total{role, outcome}} (outcome {@code completed} once per episode, {@code failed}
 * once per failed connection) and timed in {@code gateway_broker_failover_stall_seconds{role}} once per episode; shown
 * by {@link #failingOver()} while it lasts (the {@code brokerFailover} readiness detail). A connection the gateway
 * closes itself while it fails over (the relay replacing one whose commit failed, a route stopping, or
 * {@link #abandonIfStuck}: still failing over after {@value #FAILOVER_PATIENCE_MILLIS} ms) is no failed failover.
 * A reconnect to the same broker (a relay rebuilding its connection after an outage) is an episode too: it starts
 * with the lost connection's failure detected and ends with the first commit on the new connection (the client
 * reports the failure of a connection without {@code reconnectAttempts} too, then its failover failed: counted
 * {@code failed}; {@code RelayReconnectsAfterABrokerRestartAsAFailoverTest}).
 *
 * <p>Not guaranteed: a role with nothing to do after the failure commits nothing; its episode then ends
 * {@value #IDLE_GRACE_SECONDS} s after its connections are back (a {@code FAILOVER_COMPLETED}, or a new connection),
 * with the stall counted up to that reconnection, not up to the grace. Connections of a factory that was not watched
 * (the health check's, the dead-letter browser's short-lived ones) report nothing.
 */
public final class BrokerFailovers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BrokerFailovers.class);

    /** How long a connection may fail over before it is replaced by a new one (see {@link #abandonIfStuck}). */
    static final long FAILOVER_PATIENCE_MILLIS = 2000;

    /** How long after its reconnection a role with no commit ends its episode. */
    static final long IDLE_GRACE_SECONDS = 10;

    /** Who uses a connection: the label of the meters and log lines. */
    public enum Role {
        /** the relays' publishing connections */
        RELAY,
        /** the inbox consumers' listener connections */
        INBOX;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An episode of a role, from the first failure detected to its first commit afterwards. */
    public record Episode(Role role, Instant since, String connection, String broker, boolean reconnected) {
    }

    private final Clock clock;
    private final MeterRegistry meters;
    private final Map<Role, Counter> completed = new EnumMap<>(Role.class);
    private final Map<Role, Counter> failed = new EnumMap<>(Role.class);
    private final Map<Role, Timer> stall = new EnumMap<>(Role.class);
    private final Map<Role, Current> current = new EnumMap<>(Role.class);
    private final AtomicLong connections = new AtomicLong();
    private final ScheduledExecutorService idleCheck;

    /** The running episode of a role; {@code null} fields of {@link #current} when none runs. */
    private static final class Current {
        volatile Episode episode;
        long startedNanos;
        long reconnectedNanos;
    }

    public BrokerFailovers(MeterRegistry meters, Clock clock) {
        this.clock = clock;
        this.meters = meters;
        for (Role r : Role.values()) {
            completed.put(r, failovers(r, "completed"));
            failed.put(r, failovers(r, "failed"));
            stall.put(r, Timer.builder("gateway.broker.failover.stall")
                    .description("From a broker connection's failure detected to the role's first commit afterwards"
                            + " (or its reconnection, when it had nothing to commit)")
                    .tag("role", r.tag()).register(meters));
            current.put(r, new Current());
        }
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread t = new Thread(task, "broker-failover-idle-check");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        this.idleCheck = executor;
    }

    private Counter failovers(Role role, String outcome) {
        return Counter.builder("gateway.broker.failovers")
                .description("Broker failovers of the gateway's connections: completed (once per episode, when the"
                        + " role commits again) and failed (a connection's failover that gave up)")
                .tag("role", role.tag()).tag("outcome", outcome).register(meters);
    }

    /**
     * A factory whose every connection reports its failover events here, as {@code role}: a copy of {@code cf} (the
     * Artemis client's; all its settings, see {@link BrokerConnections#copyOf}) that stays watched through further
     * copies ({@link BrokerConnections#copyOf}, {@link BrokerConnections#xaFactory}). Another client's factory is
     * returned as it is: it reports nothing.
     */
    public ConnectionFactory watch(ConnectionFactory cf, Role role) {
        if (!(cf instanceof org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory artemis)) {
            log.warn("Broker connection factory {} is not Artemis's: the gateway cannot see its failovers",
                    cf.getClass().getName());
            return cf;
        }
        return BrokerConnections.watched(artemis, new Watch(this, role),
                artemis instanceof org.apache.activemq.artemis.jms.client.ActiveMQXAConnectionFactory);
    }

    /**
     * A commit of {@code cf}'s role went through (a relay's batch, an inbox consumer's batch): ends the role's episode,
     * if one runs. A volatile read when none does. Nothing for a factory that is not watched.
     */
    public static void committed(ConnectionFactory cf) {
        if (cf instanceof BrokerConnections.Watched w) {
            w.watch().failovers().resumed(w.watch().role());
        }
    }

    /** The episodes running now, by role (empty when none). */
    public Map<Role, Episode> failingOver() {
        Map<Role, Episode> running = new EnumMap<>(Role.class);
        current.forEach((role, c) -> {
            Episode e = c.episode;
            if (e != null) {
                running.put(role, e);
            }
        });
        return running;
    }

    /** The watch of one factory: its role, and the sequence that names its connections. */
    record Watch(BrokerFailovers failovers, Role role) {

        /** Registers the failover listener of a connection just created; called once per connection. */
        void connected(ActiveMQConnection connection) {
            String name = role.tag() + " connection #" + failovers.connections.incrementAndGet();
            AtomicLong failures = new AtomicLong(); // odd while this connection fails over, -1 once abandoned
            try {
                connection.setFailoverListener(event -> {
                    if (event == FailoverEventType.FAILURE_DETECTED) {
                        long failure = failures.incrementAndGet();
                        failovers.idleCheck.schedule(() -> failovers.abandonIfStuck(name, connection, failures,
                                failure), FAILOVER_PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
                    } else if (failures.get() > 0 && failures.get() % 2 == 1) {
                        failures.incrementAndGet();
                    }
                    failovers.event(role, name, connection, event, failures.get() < 0);
                });
            } catch (jakarta.jms.JMSException e) {
                log.warn("Cannot watch the failovers of broker {}: {}", name, e.toString());
            }
            failovers.reconnected(role);
        }
    }

    /**
     * A connection still failing over {@value #FAILOVER_PATIENCE_MILLIS} ms after its failure was detected is closed,
     * so that its owner opens a new one (the relay at once, in the same publish; a listener container by its
     * recovery): the client's failover can wait the whole {@code callTimeout} for its check of a backup still
     * activating (docs/architecture.md, "Decisions"); a new connection makes no such check. A failover that takes
     * long because the backup is slow to activate loses nothing by it:
     * the new connection waits for the backup as the failover would have ({@code initialConnectAttempts=-1}).
     */
    private void abandonIfStuck(String name, ActiveMQConnection connection, AtomicLong failures, long failure) {
        if (closedByTheGateway(connection) || !failures.compareAndSet(failure, -1)) {
            return; // failed over, or closed by its owner, meanwhile
        }
        log.warn("Broker {} still failing over after {} ms: closing it, its owner opens a new connection", name,
                FAILOVER_PATIENCE_MILLIS);
        try {
            connection.close();
        } catch (jakarta.jms.JMSException | RuntimeException e) {
            log.debug("Closing broker {} failed: {}", name, e.toString());
        }
    }

    /** @param abandoned the gateway closed this connection because its failover took too long */
    private void event(Role role, String connection, ActiveMQConnection c, FailoverEventType event,
                       boolean abandoned) {
        String broker = broker(c);
        switch (event) {
            case FAILURE_DETECTED -> started(role, connection, broker);
            case FAILOVER_COMPLETED -> {
                log.info("Broker {} ({}) failed over to {} ({} ms after the failure detected)", connection,
                        role.tag(), broker, sinceStart(role));
                reconnected(role);
            }
            case FAILOVER_FAILED -> {
                if (abandoned || closedByTheGateway(c)) {
                    // the relay replacing a connection, a route stopping: the client gives up its reconnection
                    log.debug("Broker {} ({}) closed while failing over", connection, role.tag());
                    return;
                }
                failed.get(role).increment();
                log.error("Broker {} ({}) could not fail over (last broker {}): the connection is lost; the {}"
                        + " opens a new one", connection, role.tag(), broker,
                        role == Role.RELAY ? "relay" : "listener container");
            }
        }
    }

    private void started(Role role, String connection, String broker) {
        Current c = current.get(role);
        synchronized (c) {
            if (c.episode != null) {
                log.info("Broker {} ({}) lost broker {} too (failing over since {})", connection, role.tag(),
                        broker, c.episode.since());
                return;
            }
            c.startedNanos = System.nanoTime();
            c.reconnectedNanos = 0;
            c.episode = new Episode(role, clock.instant(), connection, broker, false);
        }
        log.warn("Broker {} ({}) lost broker {}: failing over; {} stops until it is back (rows wait in the outbox,"
                + " messages on the broker)", connection, role.tag(), broker,
                role == Role.RELAY ? "publishing" : "consuming");
    }

    /** The role's connections are back (a failover completed, or a new connection): the idle grace starts. */
    private void reconnected(Role role) {
        Current c = current.get(role);
        synchronized (c) {
            Episode e = c.episode;
            if (e == null || c.reconnectedNanos != 0) {
                return;
            }
            c.reconnectedNanos = System.nanoTime();
            c.episode = new Episode(role, e.since(), e.connection(), e.broker(), true);
        }
        idleCheck.schedule(() -> idle(role), IDLE_GRACE_SECONDS, TimeUnit.SECONDS);
    }

    private void idle(Role role) {
        Current c = current.get(role);
        long stalled;
        synchronized (c) {
            if (c.episode == null || c.reconnectedNanos == 0
                    || System.nanoTime() - c.reconnectedNanos < TimeUnit.SECONDS.toNanos(IDLE_GRACE_SECONDS)) {
                return;
            }
            stalled = c.reconnectedNanos - c.startedNanos;
            c.episode = null;
        }
        ended(role, stalled, "reconnected; nothing to " + (role == Role.RELAY ? "publish" : "consume") + " since");
    }

    private void resumed(Role role) {
        Current c = current.get(role);
        if (c.episode == null) {
            return;
        }
        long stalled;
        synchronized (c) {
            if (c.episode == null) {
                return;
            }
            stalled = System.nanoTime() - c.startedNanos;
            c.episode = null;
        }
        ended(role, stalled, role == Role.RELAY ? "publishing again" : "consuming again");
    }

    private void ended(Role role, long stalledNanos, String how) {
        completed.get(role).increment();
        stall.get(role).record(stalledNanos, TimeUnit.NANOSECONDS);
        log.info("Broker failover of the {} completed: {} after {} ms", role.tag(), how,
                TimeUnit.NANOSECONDS.toMillis(stalledNanos));
    }

    private long sinceStart(Role role) {
        Current c = current.get(role);
        synchronized (c) {
            return c.episode == null ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - c.startedNanos);
        }
    }

    /** Whether the connection was closed by its owner (the client then ends a failover under way as failed). */
    private static boolean closedByTheGateway(ActiveMQConnection c) {
        ClientSessionFactory f = c.getSessionFactory();
        return f != null && f.isClosed();
    }

    /** host:port of the broker the connection uses now (after a failover: the new one). */
    private static String broker(ActiveMQConnection c) {
        try {
            ClientSessionFactory f = c.getSessionFactory();
            TransportConfiguration t = f == null ? null : f.getConnectorConfiguration();
            if (t == null) {
                return "(unknown)";
            }
            Object host = t.getParams().get("host");
            Object port = t.getParams().get("port");
            return host + ":" + port;
        } catch (RuntimeException e) {
            return "(unknown)";
        }
    }

    @Override
    public void close() {
        idleCheck.shutdownNow();
    }
}
