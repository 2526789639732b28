package io.legacygateway.ops;

import io.legacygateway.config.GatewayProperties;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;

/**
 * Refreshes the sampled metrics on a schedule ({@code gateway.metrics.sample-interval}, default 15 s), so that a
 * Prometheus scrape never runs a query: each relay's backlog ({@link OutboxRelay#sampleBacklog}: pending and FAILED
 * rows, oldest waiting row), and {@code gateway_ready} (1 while the readiness group is UP, 0 otherwise), which is what
 * the "readiness down" alert watches. One daemon thread; a relay whose database is unreachable only fails its own
 * sample (counted in {@code gateway_outbox_sample_failures_total}; its gauges keep their last value).
 */
public class GatewaySampler extends PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(GatewaySampler.class);

    private final OutboxRelayFactory relays;
    private final ObjectProvider<HealthEndpoint> health;
    private volatile double ready = Double.NaN;

    public GatewaySampler(GatewayProperties properties, OutboxRelayFactory relays,
                          ObjectProvider<HealthEndpoint> health, MeterRegistry meters, boolean command) {
        super("gateway-sampler", shorter(Duration.ofSeconds(1), properties.metrics().sampleInterval()),
                properties.metrics().sampleInterval(), !command);
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

    @Override
    protected void tick() {
        sampleNow();
    }
}
