package io.legacygateway.inbox;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.envelope.EventEnvelope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.Registry;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.apache.camel.support.SimpleTypeConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a camel-sql step ({@code to: sql:...}) of an effect route needs to join the inbox's transaction, put in place
 * before the routes start:
 * <ul>
 *   <li>each datasource of {@code gateway.datasources.<name>} in the Camel registry under {@code <name>}, so that
 *       {@code dataSource=#<name>} is the consumer's own pool: camel-sql's {@code JdbcTemplate} then takes the
 *       connection that the inbox's transaction holds on this thread, and its statements commit or roll back with the
 *       inbox row. A name that the registry resolves to another bean already is not bound (logged);</li>
 *   <li>a type conversion of the {@link EventEnvelope} to a {@code Map} ({@link EnvelopeValues#byName}): camel-sql
 *       looks named parameters ({@code :#amount}, {@code :#ce_id}) up in the body converted to a map, so they find the
 *       envelope's values while the body stays the envelope for every other step.</li>
 * </ul>
 * A {@code dataSource=#name} that the registry does not hold fails the start of its route, and with it the
 * gateway's start: Camel names the route, the endpoint and the missing bean. Once the routes have started, a camel-sql
 * step of an effect route on another datasource than its consumer's is logged at WARN ({@link EffectRouteCheck}).
 */
public final class CamelSqlSteps implements CamelContextConfiguration {

    private static final Logger log = LoggerFactory.getLogger(CamelSqlSteps.class);

    private final GatewayDataSources dataSources;
    private final InboxConsumerFactory consumers;

    public CamelSqlSteps(GatewayDataSources dataSources, InboxConsumerFactory consumers) {
        this.dataSources = dataSources;
        this.consumers = consumers;
    }

    @Override
    public void beforeApplicationStart(CamelContext camel) {
        Registry registry = camel.getRegistry();
        List<String> bound = new ArrayList<>();
        for (String name : dataSources.names()) {
            DataSource pool = dataSources.get(name, "gateway.datasources." + name);
            Object taken = registry.lookupByName(name);
            if (taken != null && taken != pool) {
                log.warn("gateway.datasources.{}: the Camel registry has a bean '{}' already ({}); sql: steps cannot"
                        + " refer to this datasource as dataSource=#{}", name, name, taken.getClass().getName(), name);
                continue;
            }
            registry.bind(name, DataSource.class, pool);
            bound.add("#" + name);
        }
        if (!bound.isEmpty()) {
            log.info("Datasources for sql: steps (dataSource=...): {}", String.join(", ", bound));
        }
        camel.getTypeConverterRegistry().addTypeConverter(Map.class, EventEnvelope.class, new SimpleTypeConverter(
                false, (type, exchange, value) -> EnvelopeValues.byName((EventEnvelope) value)));
    }

    @Override
    public void afterApplicationStart(CamelContext camel) {
        new EffectRouteCheck(camel, dataSources).findings(consumers.consumers()).forEach(log::warn);
    }
}
