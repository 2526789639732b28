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
import org.springframework.boot.actuate.health.CompositeHealth;
import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.event.ApplicationReadyEvent;

/**
 * Refreshes the sampled metrics on a schedule ({@code gateway.metrics.sample-interval}, default 15 s), so that a
 * Prometheus scrape never runs a query: each relay's backlog ({@link OutboxRelay#sampleBacklog}: pending and FAILED
 * rows, oldest waiting row), and {@code gateway_ready} (1 while the readiness group is UP, 0 otherwise), which is what
 * the "readiness down" alert watches. One daemon thread; a relay whose database is unreachable only fails its own
 * sample (counted in {@code gateway_outbox_sample_failures_total}; its gauges keep their last value).
 *
 * <p>Guaranteed: once the application is ready, before readiness reports UP, everything has been sampled once (on
 * {@link ApplicationReadyEvent}, which Spring Boot publishes before it accepts traffic), so that at the first UP every
 * sampled gauge of a relay whose database answered has a number. {@code gateway_ready} combines the sampled
 * databases and broker with the application's live readiness state, so it never reads 1 while readiness refuses
 * traffic, nor 0 at the first UP.
 */
public class GatewaySampler extends PeriodicJob {

    private static final Logger log = LoggerFactory.getLogger(GatewaySampler.class);

    private final OutboxRelayFactory relays;
    /** The readiness group's own indicator of the application's state; the others are the sampled components. */
    private static final String READINESS_STATE = "readinessState";

    private final ObjectProvider<HealthEndpoint> health;
    private final ObjectProvider<ApplicationAvailability> availability;
    /** Whether the readiness group's databases and broker answered at the last sample. */
    private volatile boolean componentsUp;

    public GatewaySampler(GatewayProperties properties, OutboxRelayFactory relays,
                          ObjectProvider<HealthEndpoint> health, ObjectProvider<ApplicationAvailability> availability,
                          MeterRegistry meters, boolean command) {
        super("gateway-sampler", shorter(Duration.ofSeconds(1), properties.metrics().sampleInterval()),
                properties.metrics().sampleInterval(), !command);
        this.relays = relays;
        this.health = health;
        this.availability = availability;
        Gauge.builder("gateway.ready", this, s -> s.componentsUp && s.acceptingTraffic() ? 1 : 0)
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
                componentsUp = componentsUp(endpoint.healthForPath("readiness"));
            } catch (RuntimeException e) {
                componentsUp = false;
                log.debug("Readiness sample failed: {}", e.toString());
            }
        }
    }

    /** Before Spring Boot reports readiness UP: the first sample, so that no gauge waits for the schedule. */
    @Override
    protected void whenReady() {
        sampleNow();
    }

    /** UP components of the readiness group, its application state aside (read live in the gauge). */
    private static boolean componentsUp(HealthComponent readiness) {
        if (readiness instanceof CompositeHealth group && group.getComponents() != null) {
            return group.getComponents().entrySet().stream().filter(e -> !e.getKey().equals(READINESS_STATE))
                    .allMatch(e -> Status.UP.equals(e.getValue().getStatus()));
        }
        // components hidden by configuration: the group's status, application state included
        return readiness != null && Status.UP.equals(readiness.getStatus());
    }

    private boolean acceptingTraffic() {
        ApplicationAvailability a = availability.getIfAvailable();
        return a == null || a.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC;
    }

    @Override
    protected void tick() {
        sampleNow();
    }
}
