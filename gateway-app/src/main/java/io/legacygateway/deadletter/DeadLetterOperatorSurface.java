package io.legacygateway.deadletter;

import io.legacygateway.config.GatewaySecurityProperties;
import io.legacygateway.operator.GatewayMBeans;
import jakarta.jms.JMSException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;
import org.springframework.jmx.export.annotation.ManagedResource;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Dead letters' operator surface, one class for HTTP and JMX, both served by {@link DeadLetterRedelivery} and audited
 * the same way (the actor is the HTTP user, or the Hawtio/Jolokia login).
 *
 * <p>HTTP (roles from the security configuration: GET needs {@code VIEWER}, POST {@code OPERATOR}):
 * <ul>
 *   <li>{@code GET /api/dead-letters}: the dead-letter queues and their messages grouped by queue, reason class,
 *       reason and event type;</li>
 *   <li>{@code GET /api/dead-letters/messages?queue=&type=&subject=&reasonClass=&reason=&consumer=&from=&to=&ids=
 *       &offset=0&limit=50&body=false}: one page of the dead letters a filter selects, with their inbox status
 *       ({@code body=true}, the message bodies, needs {@code OPERATOR});</li>
 *   <li>{@code POST /api/dead-letters/redeliver} with {@code {queue?, filter?, ids?, dryRun, ratePerSecond?,
 *       inboxPolicy?, force?, discardApplied?}}: the report ({@link RedeliveryReport}).</li>
 * </ul>
 * A bad parameter is a 400 naming it, an unknown queue a 404, an unreachable broker a 503.
 *
 * <p>JMX: {@link Jmx}, {@value #OBJECT_NAME} (Hawtio: JMX tree, {@code io.legacygateway} / {@code DeadLetters}),
 * registered by {@link GatewayMBeans}: the same operations. Results are maps and lists of plain values, so Hawtio and
 * Jolokia show them as JSON. Filters are written {@code key=value&key=value} with the keys of
 * {@link DeadLetterFilter#KEYS}, for example {@code type=OrderCreated&reasonClass=BUSINESS_RULE}, and read by
 * {@link DeadLetterFilter#parse(String)}, as the REST query is by {@link DeadLetterFilter#parse(Map)}.
 */
@RestController
@RequestMapping("/api/dead-letters")
public class DeadLetterOperatorSurface {

    public static final String OBJECT_NAME = "io.legacygateway:type=DeadLetters,name=redelivery";

    private final DeadLetterRedelivery redelivery;

    public DeadLetterOperatorSurface(DeadLetterRedelivery redelivery, GatewayMBeans mbeans) {
        this.redelivery = redelivery;
        mbeans.register(GatewayMBeans.name("DeadLetters", "redelivery"), new Jmx(redelivery));
    }

    @GetMapping
    public DeadLetterOverview overview() throws JMSException {
        return redelivery.overview();
    }

    @GetMapping("/messages")
    public ResponseEntity<?> messages(@RequestParam Map<String, String> parameters, HttpServletRequest request)
            throws JMSException {
        Map<String, String> filter = new LinkedHashMap<>(parameters);
        int offset = integer(filter.remove("offset"), "offset", 0);
        int limit = integer(filter.remove("limit"), "limit", 50);
        String body = filter.remove("body");
        if (body != null && !body.equals("true") && !body.equals("false")) {
            throw new IllegalArgumentException("body: '" + body + "' is not true or false");
        }
        if ("true".equals(body) && !request.isUserInRole(GatewaySecurityProperties.Role.OPERATOR.name())) {
            // bodies are business data: as in Hawtio, where browsing a queue is an operation, only operators read them
            return ResponseEntity.status(HttpStatus.FORBIDDEN).body(Map.of("error", "body=true needs the OPERATOR "
                    + "role"));
        }
        return ResponseEntity.ok(redelivery.messages(DeadLetterFilter.parse(filter), offset, limit,
                "true".equals(body)));
    }

    @PostMapping("/redeliver")
    public RedeliveryReport redeliver(@RequestBody(required = false) Map<String, Object> body) throws JMSException {
        return redelivery.redeliver(RedeliveryRequest.fromJson(body));
    }

    @ExceptionHandler(JMSException.class)
    ResponseEntity<Map<String, String>> brokerUnavailable(JMSException e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", "the broker cannot be "
                + "reached: " + e.getMessage()));
    }

    /** The dead letters in JMX: the operations of the HTTP API, with the filter as one text. */
    @ManagedResource(description = "Dead letters: list them grouped by reason, redeliver them to their original queue")
    public record Jmx(DeadLetterRedelivery redelivery) {

        private static final String QUEUE = "DLQ.<address> or the original address; empty: all";
        private static final String DRY_RUN = "true: report only, move nothing";

        @ManagedOperation(description = "The dead-letter queues with their depths")
        public List<Map<String, Object>> queues() {
            return GatewayMBeans.asList(call(redelivery::queues));
        }

        @ManagedOperation(description = "Dead letters grouped by queue, reason class, reason and event type: count, "
                + "applied (already in the consumer's inbox), oldest, newest")
        public List<Map<String, Object>> groups() {
            return GatewayMBeans.asList(call(() -> redelivery.overview().groups()));
        }

        @ManagedOperation(description = "One page of the dead letters a filter selects, with their inbox status")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = "queue", description = QUEUE),
                @ManagedOperationParameter(name = "filter", description = DeadLetterFilter.TEXT_FORM),
                @ManagedOperationParameter(name = "offset", description = "first message, from 0"),
                @ManagedOperationParameter(name = "limit", description = "messages per page, 1-1000")})
        public Map<String, Object> messages(String queue, String filter, int offset, int limit) {
            return GatewayMBeans.asMap(call(() -> redelivery.messages(filter(queue, filter), offset, limit, false)));
        }

        @ManagedOperation(description = "Redeliver dead letters to their original queue (inbox policy SKIP_APPLIED, "
                + "default rate, replay horizon enforced); dryRun=true only reports what would move")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = "queue", description = QUEUE),
                @ManagedOperationParameter(name = "filter", description = DeadLetterFilter.TEXT_FORM
                        + "; empty: every dead letter of the queue"),
                @ManagedOperationParameter(name = "dryRun", description = DRY_RUN)})
        public Map<String, Object> redeliver(String queue, String filter, boolean dryRun) {
            return GatewayMBeans.asMap(call(() -> redelivery.redeliver(new RedeliveryRequest(filter(queue, filter),
                    dryRun, null, InboxPolicy.SKIP_APPLIED, false, false))));
        }

        @ManagedOperation(description = "Redeliver dead letters with every option of POST"
                + " /api/dead-letters/redeliver")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = "queue", description = QUEUE),
                @ManagedOperationParameter(name = "filter", description = "key=value&...; empty: no condition"),
                @ManagedOperationParameter(name = "ids", description = "comma-separated message or event ids;"
                        + " empty: any"),
                @ManagedOperationParameter(name = "dryRun", description = DRY_RUN),
                @ManagedOperationParameter(name = "ratePerSecond", description = "messages per second;"
                        + " 0: the default"),
                @ManagedOperationParameter(name = "inboxPolicy", description = "SKIP_APPLIED, REDELIVER_ALL or "
                        + "RELEASE_INBOX_AND_REDELIVER; empty: SKIP_APPLIED"),
                @ManagedOperationParameter(name = "force", description = "also dead letters older than the replay"
                        + " horizon"),
                @ManagedOperationParameter(name = "discardApplied", description = "SKIP_APPLIED: remove applied ones "
                        + "from the dead-letter queue")})
        public Map<String, Object> redeliverWithOptions(String queue, String filter, String ids, boolean dryRun,
                                                        int ratePerSecond, String inboxPolicy, boolean force,
                                                        boolean discardApplied) {
            DeadLetterFilter f = filter(queue, filter);
            if (ids != null && !ids.isBlank()) {
                f = f.withIds(DeadLetterFilter.parse(Map.of(DeadLetterFilter.IDS, ids)).ids());
            }
            RedeliveryRequest request = new RedeliveryRequest(f, dryRun, ratePerSecond <= 0 ? null : ratePerSecond,
                    RedeliveryRequest.policy(inboxPolicy), force, discardApplied);
            return GatewayMBeans.asMap(call(() -> redelivery.redeliver(request)));
        }

        private static DeadLetterFilter filter(String queue, String filter) {
            DeadLetterFilter f = DeadLetterFilter.parse(filter);
            return queue == null || queue.isBlank() ? f : f.withQueue(queue.strip());
        }
    }

    private static int integer(String value, String name, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": '" + value + "' is not an integer");
        }
    }

    private interface BrokerCall<T> {
        T run() throws JMSException;
    }

    /** JMX callers get an unreachable broker as an exception Jolokia can render, not a checked JMSException. */
    private static <T> T call(BrokerCall<T> call) {
        try {
            return call.run();
        } catch (JMSException e) {
            throw new IllegalStateException("the broker cannot be reached: " + e.getMessage(), e);
        }
    }
}
