package io.legacygateway.reconciliation;

import io.legacygateway.ops.GatewayMBeans;

/** The reconciliation report as {@link ReconciliationMBean}, {@value #NAME} (Jolokia, Hawtio). */
public class ReconciliationJmx implements ReconciliationMBean {

    public static final String NAME = "io.legacygateway:type=Reconciliation";

    private final Reconciliation reconciliation;

    public ReconciliationJmx(Reconciliation reconciliation, GatewayMBeans mbeans) {
        this.reconciliation = reconciliation;
        mbeans.register(GatewayMBeans.name("Reconciliation", null), this, ReconciliationMBean.class);
    }

    @Override
    public String report() {
        return reportFor("", false);
    }

    @Override
    public String reportFor(String relay, boolean all) {
        return reconciliation.report(relay == null || relay.isBlank() ? null : relay, all, null).render();
    }
}
