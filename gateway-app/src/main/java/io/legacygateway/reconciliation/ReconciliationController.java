package io.legacygateway.reconciliation;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The reconciliation report ({@link Reconciliation}); read-only, so {@code VIEWER} may read it (SecurityConfiguration).
 *
 * <pre>
 * GET /api/reconciliation?relay=orders&amp;all=false&amp;intentId=evt-1&amp;format=json|text
 * </pre>
 * {@code all=true} also lists intents decided DOMAIN_AND_INTENT_COMMITTED (they are always counted).
 */
@RestController
@RequestMapping("/api/reconciliation")
public class ReconciliationController {

    private final Reconciliation reconciliation;

    public ReconciliationController(Reconciliation reconciliation) {
        this.reconciliation = reconciliation;
    }

    @GetMapping
    public ResponseEntity<?> report(@RequestParam(required = false) String relay,
                                    @RequestParam(defaultValue = "false") boolean all,
                                    @RequestParam(required = false) String intentId,
                                    @RequestParam(defaultValue = "json") String format) {
        Reconciliation.Report report = reconciliation.report(relay, all, intentId);
        return switch (format) {
            case "json" -> ResponseEntity.ok(report);
            case "text" -> ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(report.render());
            default -> throw new IllegalArgumentException("format: '" + format + "' is not json or text");
        };
    }
}
