package io.legacygateway.relay;

import io.legacygateway.adapters.outbox.Backlog;
import io.legacygateway.operator.GatewayMBeans;
import io.legacygateway.relay.RelayOperations.Filter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;
import org.springframework.jmx.export.annotation.ManagedAttribute;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;
import org.springframework.jmx.export.annotation.ManagedResource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The relays' operator surface, over HTTP and JMX, both served by {@link RelayOperations}.
 *
 * <p>HTTP: reads need {@code VIEWER}, the retry {@code OPERATOR} (SecurityConfiguration).
 * <pre>
 * GET  /api/relays
 * GET  /api/relays/{relay}/failed?eventType=&amp;aggregateId=&amp;from=&amp;to=&amp;reason=&amp;limit=100
 * POST /api/relays/{relay}/failed/retry   {"ids": ["42"]}  or  {"eventType": "OrderPaid", "dryRun": true}
 * </pre>
 * JMX: one {@link Jmx} per relay, {@code io.legacygateway:type=Relay,name=<relay>} (Hawtio's JMX tab, Jolokia),
 * registered as relays are created. Its operations return the HTTP API's answers as maps and lists (JSON in Jolokia);
 * retries are audited with the JMX caller (the Jolokia login) as actor. Every way in reads the filter through
 * {@link Filter#from}.
 */
@RestController
@RequestMapping("/api/relays")
public class RelayOperatorSurface {

    private final RelayOperations operations;

    public RelayOperatorSurface(RelayOperations operations, OutboxRelayFactory relays, GatewayMBeans mbeans) {
        this.operations = operations;
        relays.onCreate(relay -> mbeans.register(name(relay.name()), new Jmx(relay, operations)));
        relays.onRelease(relay -> mbeans.unregister(name(relay.name())));
    }

    /** {@code io.legacygateway:type=Relay,name=<relay>}; relay names are valid ObjectName values as they are. */
    public static ObjectName name(String relay) {
        return GatewayMBeans.name("Relay", relay);
    }

    @GetMapping
    public List<RelayOperations.RelayView> relays() {
        return operations.relays();
    }

    @GetMapping("/{relay}/failed")
    public List<RelayOperations.FailedRowView> failed(@PathVariable String relay,
                                                      @RequestParam Map<String, String> filter,
                                                      @RequestParam(defaultValue = "100") int limit) {
        return operations.failed(relay, Filter.from(filter), limit);
    }

    @PostMapping("/{relay}/failed/retry")
    public RelayOperations.RetryResult retry(@PathVariable String relay,
                                             @RequestBody RelayOperations.RetryRequest request) {
        return operations.retry(relay, request);
    }

    /** One relay in JMX: its settings, its last backlog sample, its FAILED rows. */
    @ManagedResource(description = "One outbox relay: its settings, its last backlog sample, its FAILED rows")
    public static final class Jmx {
        private static final String ANY = "; empty: any";
        private static final String EVENT_TYPE = "rows " + Filter.EVENT_TYPE_TEXT + ANY;
        private static final String AGGREGATE_ID = "rows " + Filter.AGGREGATE_ID_TEXT + ANY;
        private static final String FROM = "rows " + Filter.FROM_TEXT + "; empty: no lower bound";
        private static final String TO = "rows " + Filter.TO_TEXT + "; empty: no upper bound";
        private static final String REASON = "rows " + Filter.REASON_TEXT + ANY;
        private static final String DRY_RUN = "true: report only, change nothing";

        private final OutboxRelay relay;
        private final RelayOperations operations;

        Jmx(OutboxRelay relay, RelayOperations operations) {
            this.relay = relay;
            this.operations = operations;
        }

        @ManagedAttribute(description = "The relay's name (parameter relay)")
        public String getName() {
            return relay.name();
        }

        @ManagedAttribute(description = "How published rows are marked: STATUS, TIMESTAMP, DELETE or ZERO_WRITE")
        public String getMarkMode() {
            return relay.settings().markMode().name();
        }

        @ManagedAttribute(description = "Attempts per row before it is parked as FAILED (parameter maxAttempts)")
        public int getMaxAttempts() {
            return relay.settings().retry().maxAttempts();
        }

        @ManagedAttribute(description = "What a FAILED row does to the later rows of its aggregate (parameter"
                + " failedRowPolicy)")
        public String getFailedRowPolicy() {
            return relay.settings().failedRowPolicy().name();
        }

        @ManagedAttribute(description = "Rows waiting to be published at the last sample; -1 before the first")
        public long getPending() {
            Backlog b = relay.backlog();
            return b == null ? -1 : b.pending();
        }

        @ManagedAttribute(description = "Rows parked as FAILED at the last sample; -1 before the first")
        public long getFailed() {
            Backlog b = relay.backlog();
            return b == null ? -1 : b.failed();
        }

        @ManagedOperation(description = "FAILED rows matching a filter, in outbox order (empty arguments match"
                + " everything)")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = Filter.EVENT_TYPE, description = EVENT_TYPE),
                @ManagedOperationParameter(name = Filter.AGGREGATE_ID, description = AGGREGATE_ID),
                @ManagedOperationParameter(name = Filter.FROM, description = FROM),
                @ManagedOperationParameter(name = Filter.TO, description = TO),
                @ManagedOperationParameter(name = Filter.REASON, description = REASON),
                @ManagedOperationParameter(name = "limit", description = "rows at most")})
        public List<Map<String, Object>> listFailed(String eventType, String aggregateId, String from, String to,
                                                    String reason, int limit) {
            return GatewayMBeans.asList(operations.failed(relay.name(),
                    Filter.parse(eventType, aggregateId, from, to, reason), limit <= 0 ? 100 : limit));
        }

        @ManagedOperation(description = "Retry FAILED rows by key (audited, the JMX login as actor)")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = "ids", description = "row keys, comma-separated, as listFailed"
                        + " lists them"),
                @ManagedOperationParameter(name = "dryRun", description = DRY_RUN)})
        public Map<String, Object> retryFailed(String ids, boolean dryRun) {
            List<String> keys = ids == null ? List.of() : Arrays.stream(ids.split(",")).map(String::strip)
                    .filter(s -> !s.isEmpty()).toList();
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("ids: give the keys of the FAILED rows, comma-separated");
            }
            return GatewayMBeans.asMap(operations.retry(relay.name(),
                    new RelayOperations.RetryRequest(keys, null, null, null, null, null, null, dryRun)));
        }

        @ManagedOperation(description = "Retry the FAILED rows matching a filter, at least one criterion (audited)")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = Filter.EVENT_TYPE, description = EVENT_TYPE),
                @ManagedOperationParameter(name = Filter.AGGREGATE_ID, description = AGGREGATE_ID),
                @ManagedOperationParameter(name = Filter.FROM, description = FROM),
                @ManagedOperationParameter(name = Filter.TO, description = TO),
                @ManagedOperationParameter(name = Filter.REASON, description = REASON),
                @ManagedOperationParameter(name = "dryRun", description = DRY_RUN)})
        public Map<String, Object> retryFailedMatching(String eventType, String aggregateId, String from, String to,
                                                       String reason, boolean dryRun) {
            return GatewayMBeans.asMap(operations.retry(relay.name(),
                    new RelayOperations.RetryRequest(null, eventType, aggregateId, from, to, reason, null, dryRun)));
        }
    }
}
