package io.legacygateway.ops;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

/**
 * The gateway's MBeans on the platform MBean server (the one Jolokia and Hawtio read): registered as their relays,
 * consumers or services appear, removed when the application stops. A name already taken (another application context
 * in the same JVM, as in tests) is logged and left to its owner.
 */
public class GatewayMBeans implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(GatewayMBeans.class);

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new CopyOnWriteArrayList<>();

    /** The name {@code io.legacygateway:type=<type>[,name=<name>]}; names are lowercase letters, digits, dashes. */
    public static ObjectName name(String type, String name) {
        try {
            return new ObjectName("io.legacygateway:type=" + type + (name == null ? "" : ",name=" + name));
        } catch (JMException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /**
     * Registers {@code implementation} under {@code name} with the operations and attributes of {@code type}, described
     * by the Spring JMX annotations of {@code type} ({@link DescribedMBean}).
     */
    public <T> void register(ObjectName name, T implementation, Class<T> type) {
        try {
            server.registerMBean(new DescribedMBean<>(implementation, type), name);
            registered.add(name);
        } catch (InstanceAlreadyExistsException e) {
            log.warn("{} is registered already (another application context in this JVM); not registered again", name);
        } catch (JMException e) {
            log.warn("Cannot register {}: {}", name, e.toString());
        }
    }

    @Override
    public void destroy() {
        registered.forEach(n -> {
            try {
                server.unregisterMBean(n);
            } catch (JMException | RuntimeException ignored) {
                // gone already
            }
        });
        registered.clear();
    }
}
