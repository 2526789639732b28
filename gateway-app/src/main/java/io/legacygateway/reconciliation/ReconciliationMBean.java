package io.legacygateway.reconciliation;

import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;

/**
 * The reconciliation report in JMX ({@code io.legacygateway:type=Reconciliation}), for Hawtio's operations tab.
 * Read-only.
 */
public interface ReconciliationMBean {

    /** Findings of every relay (intents needing attention), as text. */
    @ManagedOperation(description = "Findings of every relay (intents needing attention), as text")
    String report();

    /**
     * @param relay relay name, empty for every relay
     * @param all   also list intents decided DOMAIN_AND_INTENT_COMMITTED
     */
    @ManagedOperation(description = "The report of one relay or of all, as text")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "relay", description = "relay name; empty: every relay"),
            @ManagedOperationParameter(name = "all", description = "also list intents decided"
                    + " DOMAIN_AND_INTENT_COMMITTED")})
    String reportFor(String relay, boolean all);
}
