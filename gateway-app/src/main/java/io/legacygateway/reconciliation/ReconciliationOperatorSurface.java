package io.legacygateway.reconciliation;

import io.legacygateway.operator.GatewayMBeans;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;
import org.springframework.jmx.export.annotation.ManagedResource;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The reconciliation report ({@link Reconciliation}) over HTTP and JMX; read-only, so {@code VIEWER} may read it
 * (SecurityConfiguration).
 *
 * <pre>
 * GET /api/reconciliation?relay=orders&amp;all=false&amp;intentId=evt-1&amp;format=json|text
 * </pre>
 * {@code all=true} also lists intents decided DOMAIN_AND_INTENT_COMMITTED (they are always counted). In JMX the
 * report is {@link Jmx}, {@value #NAME}, for Hawtio's operations tab (Jolokia).
 */
@RestController
@RequestMapping("/api/reconciliation")
public class ReconciliationOperatorSurface {

    public static final String NAME = "io.legacygateway:type=Reconciliation";

    private final Reconciliation reconciliation;

    public ReconciliationOperatorSurface(Reconciliation reconciliation, GatewayMBeans mbeans) {
        this.reconciliation = reconciliation;
        mbeans.register(GatewayMBeans.name("Reconciliation", null), new Jmx(reconciliation));
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

    /** The report in JMX, as text. */
    @ManagedResource(description = "The reconciliation report: intents whose publication needs attention")
    public record Jmx(Reconciliation reconciliation) {

        @ManagedOperation(description = "Findings of every relay (intents needing attention), as text")
        public String report() {
            return reportFor("", false);
        }

        @ManagedOperation(description = "The report of one relay or of all, as text")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = "relay", description = "relay name; empty: every relay"),
                @ManagedOperationParameter(name = "all", description = "also list intents decided"
                        + " DOMAIN_AND_INTENT_COMMITTED")})
        public String reportFor(String relay, boolean all) {
            return reconciliation.report(relay == null || relay.isBlank() ? null : relay, all, null).render();
        }
    }
}
