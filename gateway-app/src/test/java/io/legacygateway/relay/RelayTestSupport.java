package io.legacygateway.relay;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.QueueProbe;
import io.legacygateway.testsupport.RelayFaults;
import jakarta.jms.ConnectionFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

/**
 * What relay tests share: the legacy datasource {@code legacy}, a clean outbox, relays made as YAML would make them,
 * and {@link RelayFaults} to open the window between publish and mark.
 *
 * <p>Every relay test class has a database of its own, so its Spring context is never reused; it is closed after the
 * class instead of being cached with its connection pools open (PostgreSQL allows 100 connections, shared by every
 * suite on the machine).
 */
@Import(RelayTestSupport.Faults.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class RelayTestSupport {

    @TestConfiguration
    static class Faults {
        @Bean
        RelayFaults relayFaults() {
            return new RelayFaults();
        }
    }

    @Autowired
    protected RelayFaults faults;

    @Autowired
    protected OutboxRelayFactory factory;
    @Autowired
    protected GatewayDataSources dataSources;
    @Autowired
    protected ConnectionFactory connectionFactory;

    protected OutboxRows rows;
    protected QueueProbe broker;

    @BeforeEach
    void cleanOutbox() {
        rows = new OutboxRows(dataSources.get("legacy", "test"));
        rows.clear();
        broker = new QueueProbe(probeConnectionFactory());
    }

    /** Where the test reads the queues; the application's own connection factory unless overridden. */
    protected ConnectionFactory probeConnectionFactory() {
        return connectionFactory;
    }

    /** A relay on the default outbox table, as an {@code outbox-relay} route with these parameters would create it. */
    protected OutboxRelay relay(String name, String destination, Map<String, Object> extra) {
        return relay(name, destination, extra, List.of());
    }

    /** As {@link #relay(String, String, Map)}, with observers of this relay's cycles. */
    protected OutboxRelay relay(String name, String destination, Map<String, Object> extra,
                                List<RelayCycleHook> hooks) {
        Map<String, Object> p = new HashMap<>();
        p.put("relay", name);
        p.put("dataSource", "legacy");
        p.put("table", "outbox");
        p.put("destination", destination);
        p.put("batchSize", "100");
        p.put("pollInterval", "1s");
        p.put("maxBackoff", "30s");
        p.put("payloadFormat", "JSON");
        p.put("pendingStatus", "PENDING");
        p.put("publishedStatus", "PUBLISHED");
        p.put("failedStatus", "FAILED");
        p.putAll(stepParameters());
        p.putAll(extra);
        return factory.create(p, hooks);
    }

    /** Parameters every relay of the test gets besides its own: steps, for the contract run with steps. */
    protected Map<String, Object> stepParameters() {
        return Map.of();
    }

    protected static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    protected static int drain(OutboxRelay relay) {
        return relay.drain(() -> false);
    }
}
