package io.legacygateway.reconciliation;

/**
 * The reconciliation report in JMX ({@code io.legacygateway:type=Reconciliation}), for Hawtio's operations tab.
 * Read-only.
 */
public interface ReconciliationMBean {

    /** Findings of every relay (intents needing attention), as text. */
    String report();

    /**
     * @param relay relay name, empty for every relay
     * @param all   also list intents decided DOMAIN_AND_INTENT_COMMITTED
     */
    String reportFor(String relay, boolean all);
}
