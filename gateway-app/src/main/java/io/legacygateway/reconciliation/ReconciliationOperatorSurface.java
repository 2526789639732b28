package io.legacygateway.reconciliation;

import io.legacygateway.command.GatewayApiClient;
import io.legacygateway.operator.GatewayMBeans;
import java.util.Map;
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
 * {@code all=true} also lists intents decided DOMAIN_AND_INTENT_COMMITTED (they are always counted); the query is read
 * by {@link ReconciliationQuery#from}. In JMX the report is {@link Jmx}, {@value #NAME}, for Hawtio's operations tab
 * (Jolokia).
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
    public ResponseEntity<?> report(@RequestParam Map<String, String> query,
                                    @RequestParam(defaultValue = "json") String format) {
        Reconciliation.Report report = select(reconciliation, ReconciliationQuery.from(query));
        return switch (format) {
            case "json" -> ResponseEntity.ok(report);
            case "text" -> ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(report.render());
            default -> throw new IllegalArgumentException("format: '" + format + "' is not json or text");
        };
    }

    private static Reconciliation.Report select(Reconciliation reconciliation, ReconciliationQuery query) {
        return reconciliation.report(query.relay(), query.all(), query.intentId());
    }

    /** The report in JMX, as text: a report for a reader. */
    @ManagedResource(description = "The reconciliation report: intents whose publication needs attention")
    public record Jmx(Reconciliation reconciliation) {

        @ManagedOperation(description = "Findings of every relay (intents needing attention), as text")
        public String report() {
            return reportFor("", false);
        }

        @ManagedOperation(description = "The report of one relay or of all, as text")
        @ManagedOperationParameters({
                @ManagedOperationParameter(name = ReconciliationQuery.RELAY,
                        description = ReconciliationQuery.RELAY_TEXT),
                @ManagedOperationParameter(name = ReconciliationQuery.ALL,
                        description = ReconciliationQuery.ALL_TEXT)})
        public String reportFor(String relay, boolean all) {
            return select(reconciliation, ReconciliationQuery.from(GatewayApiClient.parameters(
                    ReconciliationQuery.RELAY, relay, ReconciliationQuery.ALL, String.valueOf(all)))).render();
        }
    }
}
