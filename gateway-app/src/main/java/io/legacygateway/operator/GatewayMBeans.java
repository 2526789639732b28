package io.legacygateway.operator;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
import org.springframework.jmx.support.RegistrationPolicy;

/**
 * The gateway's MBeans on the platform MBean server (the one Jolokia and Hawtio read), and the one way they get there.
 * Each operator surface is one class annotated with Spring's {@link ManagedResource}, {@code @ManagedAttribute},
 * {@code @ManagedOperation} and {@code @ManagedOperationParameter}; Spring's annotation assembler turns them into the
 * MBeanInfo, so Hawtio and Jolokia show what an operation does and what each argument is. Operations return maps,
 * lists and plain values ({@link #asMap}, {@link #asList}), which Jolokia renders as JSON; text only for reports meant
 * for a reader.
 *
 * <p>Resources are registered as their relays, consumers or services appear and removed when the application stops.
 * They are registered whether or not Spring Boot's own JMX export is enabled (that one exports no gateway bean). A name
 * taken by another application context of the same JVM (tests) is taken over by the newer one, and left alone when the
 * older one stops.
 */
public class GatewayMBeans implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(GatewayMBeans.class);

    /** Which resource holds each name now, across the application contexts of this JVM (one platform server). */
    private static final Map<ObjectName, Object> HOLDERS = new ConcurrentHashMap<>();

    private static final ObjectMapper PLAIN = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    private static final TypeReference<List<Map<String, Object>>> LIST = new TypeReference<>() {
    };

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final MBeanExporter exporter = new MBeanExporter();
    private final Map<ObjectName, Object> registered = new LinkedHashMap<>();

    public GatewayMBeans() {
        exporter.setServer(server);
        exporter.setAssembler(new MetadataMBeanInfoAssembler(new AnnotationJmxAttributeSource()));
        exporter.setRegistrationPolicy(RegistrationPolicy.REPLACE_EXISTING);
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
     * What an operation returns for {@code value}, a record or map: a map of maps, lists, strings, numbers and
     * booleans, as the REST API's JSON has it, so that Jolokia renders the same JSON.
     */
    public static Map<String, Object> asMap(Object value) {
        return PLAIN.convertValue(value, MAP);
    }

    /** {@link #asMap} for a list of records or maps. */
    public static List<Map<String, Object>> asList(Object value) {
        return PLAIN.convertValue(value, LIST);
    }

    /**
     * Registers {@code resource} under {@code name}; its class carries {@link ManagedResource} and the other Spring JMX
     * annotations. Resources are plain objects, not beans, so that no other exporter registers them too.
     */
    public synchronized void register(ObjectName name, Object resource) {
        if (server.isRegistered(name) && !registered.containsKey(name)) {
            log.info("{} is registered by another application context of this JVM; this one takes it over", name);
        }
        try {
            exporter.registerManagedResource(resource, name);
            registered.put(name, resource);
            HOLDERS.put(name, resource);
        } catch (MBeanExportException e) {
            log.warn("Cannot register {}: {}", name, e.toString());
        }
    }

    /** Unregisters {@code name} if this application context holds it (a relay or consumer replaced by a route edit). */
    public synchronized void unregister(ObjectName name) {
        Object resource = registered.remove(name);
        if (resource != null && HOLDERS.remove(name, resource)) {
            exporter.unregisterManagedResource(name);
        }
    }

    @Override
    public synchronized void destroy() {
        new LinkedHashMap<>(registered).keySet().forEach(this::unregister);
    }
}
