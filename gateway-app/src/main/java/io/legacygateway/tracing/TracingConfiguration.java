package io.legacygateway.tracing;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway's {@link GatewayTracing}: on exactly when Spring Boot configured a span exporter, which with this
 * application's dependencies means when {@code management.otlp.tracing.endpoint} is set (Boot's OTLP exporter is
 * created only then, and only while {@code management.tracing.enabled} and
 * {@code management.otlp.tracing.export.enabled} are not false). Otherwise {@link GatewayTracing#OFF}: spans that
 * nobody exports would cost every event their making for nothing.
 */
@Configuration(proxyBeanMethods = false)
public class TracingConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TracingConfiguration.class);

    @Bean
    GatewayTracing gatewayTracing(ObjectProvider<SpanExporter> exporters, ObjectProvider<Tracer> tracer,
                                  ObjectProvider<Propagator> propagator) {
        Tracer t = tracer.getIfUnique();
        Propagator p = propagator.getIfUnique();
        if (exporters.stream().findAny().isEmpty() || t == null || t == Tracer.NOOP || p == null) {
            return GatewayTracing.OFF;
        }
        log.info("Traces: relay cycles, published events and inbox applies are exported as spans");
        return GatewayTracing.of(t, p);
    }
}
