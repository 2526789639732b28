package io.legacygateway.ops;

import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import java.util.Arrays;
import java.util.List;
import javax.management.ObjectName;

/**
 * Registers one {@link RelayControlMBean} per relay, {@code io.legacygateway:type=Relay,name=<relay>}, as relays are
 * created ({@link GatewayMBeans}).
 */
public class RelayMBeans {

    private final RelayOperations operations;
    private final GatewayMBeans mbeans;

    public RelayMBeans(OutboxRelayFactory relays, RelayOperations operations, GatewayMBeans mbeans) {
        this.operations = operations;
        this.mbeans = mbeans;
        relays.onCreate(this::register);
    }

    public static ObjectName name(String relay) {
        // relay names are lowercase letters, digits and dashes: valid ObjectName values as they are
        return GatewayMBeans.name("Relay", relay);
    }

    void register(OutboxRelay relay) {
        mbeans.register(name(relay.name()), new Control(relay, operations), RelayControlMBean.class);
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
