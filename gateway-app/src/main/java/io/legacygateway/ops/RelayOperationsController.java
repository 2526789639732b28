package io.legacygateway.ops;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The relays' operator API ({@link RelayOperations}); reads need {@code VIEWER}, the retry {@code OPERATOR}
 * (SecurityConfiguration).
 *
 * <pre>
 * GET  /api/relays
 * GET  /api/relays/{relay}/failed?eventType=&amp;aggregateId=&amp;from=&amp;to=&amp;reason=&amp;limit=100
 * POST /api/relays/{relay}/failed/retry   {"ids": ["42"]}  or  {"eventType": "OrderPaid", "dryRun": true}
 * </pre>
 */
@RestController
@RequestMapping("/api/relays")
public class RelayOperationsController {

    private final RelayOperations operations;

    public RelayOperationsController(RelayOperations operations) {
        this.operations = operations;
    }

    @GetMapping
    public List<RelayOperations.RelayView> relays() {
        return operations.relays();
    }

    @GetMapping("/{relay}/failed")
    public List<RelayOperations.FailedRowView> failed(@PathVariable String relay,
                                                      @RequestParam(required = false) String eventType,
                                                      @RequestParam(required = false) String aggregateId,
                                                      @RequestParam(required = false) String from,
                                                      @RequestParam(required = false) String to,
                                                      @RequestParam(required = false) String reason,
                                                      @RequestParam(defaultValue = "100") int limit) {
        return operations.failed(relay, RelayOperations.Filter.parse(eventType, aggregateId, from, to, reason), limit);
    }

    @PostMapping("/{relay}/failed/retry")
    public RelayOperations.RetryResult retry(@PathVariable String relay,
                                             @RequestBody RelayOperations.RetryRequest request) {
        return operations.retry(relay, request);
    }
}
