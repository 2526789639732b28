package io.legacygateway.ops;

import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * Registers one {@link RelayControlMBean} per relay, {@code io.legacygateway:type=Relay,name=<relay>}, as relays are
 * created, on the platform MBean server (the one Jolokia and Hawtio read), and removes them when the application stops.
 */
public class RelayMBeans implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(RelayMBeans.class);

    private final RelayOperations operations;
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final Map<String, ObjectName> registered = new ConcurrentHashMap<>();

    public RelayMBeans(OutboxRelayFactory relays, RelayOperations operations) {
        this.operations = operations;
        relays.onCreate(this::register);
    }

    public static ObjectName name(String relay) {
        try {
            // relay names are lowercase letters, digits and dashes: valid ObjectName values as they are
            return new ObjectName("io.legacygateway:type=Relay,name=" + relay);
        } catch (JMException e) {
            throw new IllegalArgumentException(e);
        }
    }

    void register(OutboxRelay relay) {
        ObjectName name = name(relay.name());
        try {
            server.registerMBean(new StandardMBean(new Control(relay, operations), RelayControlMBean.class), name);
            registered.put(relay.name(), name);
        } catch (InstanceAlreadyExistsException e) {
            // another application context in this JVM (tests) has a relay of that name
            log.warn("Relay '{}': {} is registered already; not registered again", relay.name(), name);
        } catch (JMException e) {
            log.warn("Relay '{}': cannot register {}: {}", relay.name(), name, e.toString());
        }
    }

    @Override
    public void destroy() {
        registered.values().forEach(n -> {
            try {
                server.unregisterMBean(n);
            } catch (JMException | RuntimeException ignored) {
                // gone already
            }
        });
        registered.clear();
    }

    /** One relay's MBean. */
    static final class Control implements RelayControlMBean {
        private final OutboxRelay relay;
        private final RelayOperations operations;

        Control(OutboxRelay relay, RelayOperations operations) {
            this.relay = relay;
            this.operations = operations;
        }

        @Override
        public String getName() {
            return relay.name();
        }

        @Override
        public String getMarkMode() {
            return relay.settings().markMode().name();
        }

        @Override
        public int getMaxAttempts() {
            return relay.settings().retry().maxAttempts();
        }

        @Override
        public String getFailedRowPolicy() {
            return relay.settings().failedRowPolicy().name();
        }

        @Override
        public long getPending() {
            Backlog b = relay.backlog();
            return b == null ? -1 : b.pending();
        }

        @Override
        public long getFailed() {
            Backlog b = relay.backlog();
            return b == null ? -1 : b.failed();
        }

        @Override
        public String listFailed(String eventType, String aggregateId, String from, String to, String reason,
                                 int limit) {
            return operations.write(operations.failed(relay.name(),
                    RelayOperations.Filter.parse(eventType, aggregateId, from, to, reason), limit <= 0 ? 100 : limit));
        }

        @Override
        public String retryFailed(String ids, boolean dryRun) {
            List<String> keys = ids == null ? List.of() : Arrays.stream(ids.split(",")).map(String::strip)
                    .filter(s -> !s.isEmpty()).toList();
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("ids: give the keys of the FAILED rows, comma-separated");
            }
            return operations.write(operations.retry(relay.name(), new RelayOperations.RetryRequest(keys, null, null,
                    null, null, null, null, dryRun)));
        }

        @Override
        public String retryFailedMatching(String eventType, String aggregateId, String from, String to,
                                          String reason, boolean dryRun) {
            return operations.write(operations.retry(relay.name(), new RelayOperations.RetryRequest(null, eventType,
                    aggregateId, from, to, reason, null, dryRun)));
        }
    }
}
