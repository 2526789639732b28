package io.legacygateway.ops;

import io.legacygateway.config.GatewayProperties;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.SmartLifecycle;

/**
 * Refreshes the sampled metrics on a schedule ({@code gateway.metrics.sample-interval}, default 15 s), so that a
 * Prometheus scrape never runs a query: each relay's backlog ({@link OutboxRelay#sampleBacklog}: pending and FAILED
 * rows, oldest waiting row), and {@code gateway_ready} (1 while the readiness group is UP, 0 otherwise), which is what
 * the "readiness down" alert watches. One daemon thread; a relay whose database is unreachable only fails its own
 * sample (counted in {@code gateway_outbox_sample_failures_total}; its gauges keep their last value).
 */
public class GatewaySampler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(GatewaySampler.class);

    private final Duration interval;
    private final boolean command;
    private final OutboxRelayFactory relays;
    private final ObjectProvider<HealthEndpoint> health;
    private volatile double ready = Double.NaN;
    private ScheduledExecutorService executor;
    private ScheduledFuture<?> task;

    public GatewaySampler(GatewayProperties properties, OutboxRelayFactory relays,
                          ObjectProvider<HealthEndpoint> health, MeterRegistry meters, boolean command) {
        this.command = command;
        this.interval = properties.metrics().sampleInterval();
        this.relays = relays;
        this.health = health;
        Gauge.builder("gateway.ready", this, s -> s.ready)
                .description("1 while the readiness group (databases, broker) is UP, 0 when it is not; sampled")
                .register(meters);
    }

    /** Samples every relay's backlog and the readiness once, now. */
    public void sampleNow() {
        for (OutboxRelay relay : relays.relays()) {
            relay.sampleBacklog();
        }
        HealthEndpoint endpoint = health.getIfAvailable();
        if (endpoint != null) {
            try {
                HealthComponent readiness = endpoint.healthForPath("readiness");
                ready = readiness != null && Status.UP.equals(readiness.getStatus()) ? 1 : 0;
            } catch (RuntimeException e) {
                ready = 0;
                log.debug("Readiness sample failed: {}", e.toString());
            }
        }
    }

    private void sampleQuietly() {
        try {
            sampleNow();
        } catch (RuntimeException e) {
            log.warn("Metrics sample failed: {}", e.toString());
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gateway-sampler");
            t.setDaemon(true);
            return t;
        });
        task = executor.scheduleWithFixedDelay(this::sampleQuietly, Math.min(1000, interval.toMillis()),
                interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (task != null) {
            task.cancel(false);
        }
        if (executor != null) {
            // let a sample or batch in progress finish (it is short and bounded by timeouts), then stop
            executor.shutdown();
            try {
                if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                executor.shutdownNow();
            }
        }
        task = null;
        executor = null;
    }

    /** Not in a command process ({@code java -jar gateway-app.jar <command>}): it runs no routes and exits. */
    @Override
    public boolean isAutoStartup() {
        return !command;
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
