package io.legacygateway.relay;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.apache.camel.Consumer;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.camel.support.RoutePolicySupport;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code wakeUp: NOTIFY}: a route policy of an {@code outbox-relay} route that, while the route runs, holds one
 * connection of the relay's datasource listening on the outbox's channel and, when a notification arrives, sends an
 * exchange through the route's own processor, as its timer does (the cycles show in the route's statistics).
 * Notifications that arrive during a drain are coalesced into the next one.
 *
 * <p>Guaranteed: a wake-up never runs a cycle at the same time as the timer ({@link OutboxRelay#process} serialises
 * them) and respects the relay's backoff; after every (re)connection one cycle runs at once, for rows committed while
 * nobody listened. A lost connection is reconnected with a doubling backoff up to {@code maxBackoff}, logged at WARN
 * and counted; it never fails the relay. A connection that died silently (a network path or firewall that drops its
 * packets: no error ever reaches the listener, and no notification either) is found by a check every
 * {@link #CHECK_EVERY}, answered within {@link #CHECK_TIMEOUT_SECONDS} s or taken as lost. Not guaranteed: that every
 * insert wakes the relay (a notification sent while the connection is down, or dead and not yet checked, is lost): the
 * timer at {@code pollInterval} stays the safety net.
 */
public final class OutboxWakeUp extends RoutePolicySupport {

    private static final Logger log = LoggerFactory.getLogger(OutboxWakeUp.class);
    /** How long one wait for notifications lasts: how late a stopping route is noticed. */
    private static final int WAIT_MILLIS = 500;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
    /**
     * How often the listening connection is checked (one empty statement): how long a silently dead connection goes
     * unnoticed, at most, before the check's own timeout.
     */
    static final Duration CHECK_EVERY = Duration.ofSeconds(5);
    /** How long the check waits for the database's answer before it takes the connection for lost. */
    static final int CHECK_TIMEOUT_SECONDS = 2;

    private final String relay;
    private final DataSource dataSource;
    private final String listen;
    private final String unlisten;
    private final String channel;
    private final Duration maxBackoff;
    private final Counter wakeUps;
    private final Counter reconnects;

    private volatile boolean running;
    private volatile Route route;
    private volatile int backendPid = -1;
    private Thread listener;

    OutboxWakeUp(String relay, DataSource dataSource, String listen, String unlisten, String channel,
                 Duration maxBackoff, MeterRegistry meters) {
        this.relay = relay;
        this.dataSource = dataSource;
        this.listen = listen;
        this.unlisten = unlisten;
        this.channel = channel;
        this.maxBackoff = maxBackoff;
        this.wakeUps = Counter.builder("gateway.outbox.wakeups")
                .description("Cycles started by a notification on the outbox's channel (wakeUp NOTIFY)")
                .tag("relay", relay).register(meters);
        this.reconnects = Counter.builder("gateway.outbox.wakeup.reconnects")
                .description("Listening connections lost or refused and opened again (wakeUp NOTIFY)")
                .tag("relay", relay).register(meters);
    }

    /** The channel listened on. */
    public String channel() {
        return channel;
    }

    /** The server process of the listening connection, -1 while there is none (operations and tests). */
    public int backendPid() {
        return backendPid;
    }

    @Override
    public synchronized void onStart(Route route) {
        if (listener != null) {
            return;
        }
        this.route = route;
        running = true;
        listener = new Thread(this::listen, "outbox-wakeup-" + relay);
        listener.setDaemon(true);
        listener.start();
    }

    @Override
    public void onResume(Route route) {
        onStart(route);
    }

    @Override
    public void onSuspend(Route route) {
        halt();
    }

    @Override
    public void onStop(Route route) {
        halt();
    }

    @Override
    public void onRemove(Route route) {
        halt();
    }

    private void halt() {
        Thread t;
        synchronized (this) {
            t = listener;
            listener = null;
            running = false;
            notifyAll();
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(Duration.ofSeconds(30).toMillis()); // a running drain ends at its next batch boundary
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void listen() {
        Duration backoff = FIRST_BACKOFF;
        boolean lost = false;
        while (running) {
            try (Connection c = dataSource.getConnection()) {
                c.setAutoCommit(true); // notifications are delivered between transactions only
                try (Statement s = c.createStatement()) {
                    s.execute(listen);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                backendPid = pg.getBackendPID();
                if (lost) {
                    log.info("Relay '{}': listening on channel {} again", relay, channel);
                }
                lost = false;
                backoff = FIRST_BACKOFF;
                wake(); // rows committed while nobody listened were announced to nobody
                long nextCheck = System.nanoTime() + CHECK_EVERY.toNanos();
                while (running) {
                    PGNotification[] arrived = pg.getNotifications(WAIT_MILLIS);
                    if (arrived != null && arrived.length > 0) {
                        wakeUps.increment();
                        wake();
                    }
                    if (System.nanoTime() - nextCheck >= 0) {
                        // a dead peer behind a path that drops packets sends no error: waiting for notifications
                        // alone would never notice it, and every insert would wait for the next poll
                        if (running && !c.isValid(CHECK_TIMEOUT_SECONDS)) {
                            evict(c);
                            throw new SQLException("the listening connection did not answer a check within "
                                    + CHECK_TIMEOUT_SECONDS + " s");
                        }
                        nextCheck = System.nanoTime() + CHECK_EVERY.toNanos();
                    }
                }
                try (Statement s = c.createStatement()) {
                    s.execute(unlisten); // the connection goes back to the pool: no notifications queue up on it
                }
            } catch (SQLException | RuntimeException e) {
                backendPid = -1;
                if (!running) {
                    return;
                }
                reconnects.increment();
                if (!lost) {
                    log.warn("Relay '{}': listening connection on channel {} lost, reconnecting (polling every"
                            + " pollInterval meanwhile): {}", relay, channel, e.getMessage());
                }
                lost = true;
                pause(backoff);
                backoff = backoff.multipliedBy(2).compareTo(maxBackoff) > 0 ? maxBackoff : backoff.multipliedBy(2);
            }
        }
        backendPid = -1;
    }

    /** Keeps a connection that failed its check from being handed out again (to the next listener, for one). */
    private void evict(Connection c) {
        if (dataSource instanceof HikariDataSource pool) {
            pool.evictConnection(c);
        }
    }

    /** One pass through the route's processor, as a timer tick. */
    private void wake() {
        Route r = route;
        Consumer consumer = r == null ? null : r.getConsumer();
        if (consumer == null || !running) {
            return;
        }
        Exchange exchange = consumer.createExchange(false);
        try {
            consumer.getProcessor().process(exchange);
            if (exchange.getException() != null) {
                log.warn("Relay '{}': cycle after a wake-up failed: {}", relay, exchange.getException().toString());
            }
        } catch (Exception e) {
            log.warn("Relay '{}': cycle after a wake-up failed: {}", relay, e.toString());
        } finally {
            consumer.releaseExchange(exchange, false);
        }
    }

    private synchronized void pause(Duration backoff) {
        long until = System.nanoTime() + backoff.toNanos();
        try {
            for (long left = backoff.toMillis(); running && left > 0;
                 left = (until - System.nanoTime()) / 1_000_000) {
                wait(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
