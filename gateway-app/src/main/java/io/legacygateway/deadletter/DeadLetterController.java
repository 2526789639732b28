package io.legacygateway.deadletter;

import io.legacygateway.config.GatewaySecurityProperties;
import jakarta.jms.JMSException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * REST for dead letters (roles from the security configuration: GET needs {@code VIEWER}, POST {@code OPERATOR}):
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
 */
@RestController
@RequestMapping("/api/dead-letters")
public class DeadLetterController {

    private final DeadLetterRedelivery redelivery;

    public DeadLetterController(DeadLetterRedelivery redelivery) {
        this.redelivery = redelivery;
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
}
