package io.legacygateway.reconciliation;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/** Registers {@link ReconciliationMBean} on the platform MBean server (Jolokia, Hawtio) while the application runs. */
public class ReconciliationJmx implements ReconciliationMBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ReconciliationJmx.class);
    public static final String NAME = "io.legacygateway:type=Reconciliation";

    private final Reconciliation reconciliation;
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private ObjectName name;

    public ReconciliationJmx(Reconciliation reconciliation) {
        this.reconciliation = reconciliation;
        try {
            ObjectName n = new ObjectName(NAME);
            server.registerMBean(new StandardMBean(this, ReconciliationMBean.class), n);
            name = n;
        } catch (JMException e) {
            // another application context in this JVM (tests) registered it first
            log.warn("Cannot register {}: {}", NAME, e.toString());
        }
    }

    @Override
    public String report() {
        return reportFor("", false);
    }

    @Override
    public String reportFor(String relay, boolean all) {
        return reconciliation.report(relay == null || relay.isBlank() ? null : relay, all, null).render();
    }

    @Override
    public void destroy() throws JMException {
        if (name != null) {
            server.unregisterMBean(name);
        }
    }
}
