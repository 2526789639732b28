package io.legacygateway.ops;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.NotCompliantMBeanException;
import javax.management.StandardMBean;
import org.springframework.jmx.export.annotation.ManagedAttribute;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;
import org.springframework.jmx.export.annotation.ManagedResource;

/**
 * A standard MBean whose MBeanInfo carries the descriptions and parameter names of its interface's Spring JMX
 * annotations ({@link ManagedResource}, {@link ManagedAttribute}, {@link ManagedOperation},
 * {@link ManagedOperationParameter}), so that Hawtio and Jolokia show what an operation does and what each argument
 * is, instead of the JMX defaults ("Operation exposed for management", {@code p0}, {@code p1}). Where the interface has
 * no annotation the default stays.
 */
final class DescribedMBean<T> extends StandardMBean {

    private final Class<T> type;

    DescribedMBean(T implementation, Class<T> type) throws NotCompliantMBeanException {
        super(implementation, type);
        this.type = type;
    }

    @Override
    protected String getDescription(MBeanInfo info) {
        ManagedResource resource = type.getAnnotation(ManagedResource.class);
        return resource != null ? resource.description() : super.getDescription(info);
    }

    @Override
    protected String getDescription(MBeanAttributeInfo info) {
        return Arrays.stream(type.getMethods())
                .filter(m -> m.getParameterCount() == 0 && (m.getName().equals("get" + info.getName())
                        || m.getName().equals("is" + info.getName())))
                .map(m -> m.getAnnotation(ManagedAttribute.class)).filter(a -> a != null).findFirst()
                .map(ManagedAttribute::description).orElseGet(() -> super.getDescription(info));
    }

    @Override
    protected String getDescription(MBeanOperationInfo op) {
        return method(op).map(m -> m.getAnnotation(ManagedOperation.class)).map(ManagedOperation::description)
                .orElseGet(() -> super.getDescription(op));
    }

    @Override
    protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return parameter(op, sequence).map(ManagedOperationParameter::name)
                .orElseGet(() -> super.getParameterName(op, param, sequence));
    }

    @Override
    protected String getDescription(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return parameter(op, sequence).map(ManagedOperationParameter::description)
                .orElseGet(() -> super.getDescription(op, param, sequence));
    }

    private Optional<ManagedOperationParameter> parameter(MBeanOperationInfo op, int sequence) {
        return method(op).map(m -> m.getAnnotation(ManagedOperationParameters.class))
                .filter(p -> sequence < p.value().length).map(p -> p.value()[sequence]);
    }

    /** The interface method of an operation: same name, same parameter types. */
    private Optional<Method> method(MBeanOperationInfo op) {
        String[] signature = Arrays.stream(op.getSignature()).map(MBeanParameterInfo::getType).toArray(String[]::new);
        return Arrays.stream(type.getMethods()).filter(m -> m.getName().equals(op.getName())
                && Arrays.equals(signature, Arrays.stream(m.getParameterTypes()).map(Class::getName).toArray()))
                .findFirst();
    }
}
