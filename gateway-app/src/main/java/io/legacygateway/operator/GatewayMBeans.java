package io.legacygateway.operator;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.jmx.export.MBeanExportException;
import org.springframework.jmx.export.MBeanExporter;
import org.springframework.jmx.export.annotation.AnnotationJmxAttributeSource;
import org.springframework.jmx.export.annotation.ManagedResource;
import org.springframework.jmx.export.assembler.MetadataMBeanInfoAssembler;

/**
 * The gateway's MBeans on the platform MBean server (the one Jolokia and Hawtio read). Each operator surface is one
 * class annotated with Spring's {@link ManagedResource}, {@code @ManagedAttribute}, {@code @ManagedOperation} and
 * {@code @ManagedOperationParameter}; Spring's annotation assembler turns them into the MBeanInfo, so Hawtio and
 * Jolokia show what an operation does and what each argument is. Resources are registered as their relays, consumers
 * or services appear and removed when the application stops. A name already taken (another application context in
 * the same JVM, as in tests) is logged and left to its owner. They are registered whether or not Spring Boot's own JMX
 * export is enabled.
 */
public class GatewayMBeans implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(GatewayMBeans.class);

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final MBeanExporter exporter = new MBeanExporter();

    public GatewayMBeans() {
        exporter.setServer(server);
        exporter.setAssembler(new MetadataMBeanInfoAssembler(new AnnotationJmxAttributeSource()));
    }

    /** The name {@code io.legacygateway:type=<type>[,name=<name>]}; names are lowercase letters, digits, dashes. */
    public static ObjectName name(String type, String name) {
        try {
            return new ObjectName("io.legacygateway:type=" + type + (name == null ? "" : ",name=" + name));
        } catch (JMException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /**
     * Registers {@code resource} under {@code name}; its class carries {@link ManagedResource} and the other Spring JMX
     * annotations. Resources are plain objects, not beans: Spring Boot's exporter ({@code spring.jmx.enabled}) exports
     * the annotated beans, so a bean registered here as well would be registered twice.
     */
    public void register(ObjectName name, Object resource) {
        if (server.isRegistered(name)) {
            log.warn("{} is registered already (another application context in this JVM); not registered again", name);
            return;
        }
        try {
            exporter.registerManagedResource(resource, name);
        } catch (MBeanExportException e) {
            log.warn("Cannot register {}: {}", name, e.toString());
        }
    }

    /** Unregisters {@code name} if it is registered (a relay or consumer replaced by a route edit). */
    public void unregister(ObjectName name) {
        exporter.unregisterManagedResource(name);
    }

    @Override
    public void destroy() {
        exporter.destroy();
    }
}
