package io.legacygateway.relay;

import io.legacygateway.adapters.capture.NotifyTrigger;
import io.legacygateway.adapters.outbox.attempts.AttemptLog;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.OutboxSource;
import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.outbox.zerowrite.ZeroWriteReader;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import io.legacygateway.envelope.EnvelopeCodec;
import io.legacygateway.tracing.GatewayTracing;
import io.legacygateway.transactions.XaTransactions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.jms.ConnectionFactory;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.support.RoutePolicySupport;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Builds an {@link OutboxRelay} from the parameters of an {@code outbox-relay} route: validates them, inspects the
 * table, and fails with a message naming the parameter when something does not fit.
 */
public class OutboxRelayFactory implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(OutboxRelayFactory.class);

    private final GatewayProperties properties;
    private final GatewayDataSources dataSources;
    private final RelayTransactions transactions;
    /** The relays' XA connection pools, closed with the factory. */
    private final List<AutoCloseable> resources = new CopyOnWriteArrayList<>();
    private final MeterRegistry meters;
    private final Clock clock;
    private final RetryJitter jitter;
    private final List<RelayCycleHook> hooks;
    /** Asked for per relay: the context is being built from the routes that create relays. */
    private final ObjectProvider<CamelContext> camel;
    private final GatewayTracing tracing;
    private final EnvelopeCodec codec = new EnvelopeCodec();
    private final List<OutboxRelay> relays = new CopyOnWriteArrayList<>();
    private final List<Consumer<OutboxRelay>> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, OutboxWakeUp> wakeUps = new ConcurrentHashMap<>();
    /** The XA connection pool of each relay that has one, by relay name (closed when the relay is released). */
    private final Map<String, AutoCloseable> relayResources = new ConcurrentHashMap<>();
    private final List<Consumer<OutboxRelay>> releaseListeners = new CopyOnWriteArrayList<>();

    public OutboxRelayFactory(GatewayProperties properties, GatewayDataSources dataSources,
                              ConnectionFactory connectionFactory, XaTransactions xa, MeterRegistry meters,
                              Clock clock, RetryJitter jitter, List<RelayCycleHook> hooks,
                              ObjectProvider<CamelContext> camel, GatewayTracing tracing) {
        this.properties = properties;
        this.dataSources = dataSources;
        this.transactions = new RelayTransactions(dataSources, connectionFactory, xa);
        this.meters = meters;
        this.clock = clock;
        this.jitter = jitter;
        this.hooks = hooks;
        this.camel = camel;
        this.tracing = tracing;
    }

    public OutboxRelay create(Map<String, Object> parameters) {
        return create(parameters, List.of());
    }

    /**
     * @param extraHooks observers of this relay's cycles besides the application's (the {@code lab} command opens the
     *                   window between publish and mark with one)
     */
    public OutboxRelay create(Map<String, Object> parameters, List<RelayCycleHook> extraHooks) {
        RelaySettings s = RelaySettings.parse(parameters, properties.source(),
                dataSources.names().size() == 1 ? dataSources.names().iterator().next() : null, this::storedDomain);
        if (relays.stream().anyMatch(r -> r.name().equals(s.relay()))) {
            throw new IllegalArgumentException(RelaySettings.label(s.relay(), "relay") + ": the name '" + s.relay()
                    + "' is used twice");
        }
        DataSource dataSource = dataSources.get(s.dataSource(), RelaySettings.label(s.relay(), "dataSource"));
        Dialect dialect = dataSources.dialect(s.dataSource());
        dataSources.get(s.stateDataSource(), RelaySettings.label(s.relay(), "stateDataSource"));
        String forRelay = "relay '" + s.relay() + "'";
        RelayChecks.requireWakeUp(s, dialect);
        // the gateway's default outbox, in the connection's default schema, is the one table of the DDL a relay reads
        if (s.table().schema() == null && s.table().table().equalsIgnoreCase("outbox")) {
            dataSources.initializeSchema(s.dataSource(), GatewaySchema.OUTBOX, forRelay);
        }
        dataSources.initializeSchema(s.stateDataSource(), GatewaySchema.RELAY, forRelay);
        TableInspector.Table table = TableInspector.inspect(dataSource, dialect, s.table(),
                RelaySettings.label(s.relay(), "table"));
        UnaryOperator<String> label = p -> RelaySettings.label(s.relay(), p);
        OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(s.markMode(), s.columns(),
                s.pendingStatus(), s.publishedStatus(), s.failedStatus(), s.payloadFormat(), s.naiveTimestampZone()),
                label);
        RelayChecks.warnIfKeyOnlyEventId(mapping, label);
        String instance = s.relay() + "@" + host();
        RelayChecks.requireMarkValuesFit(mapping, instance, s, label);
        String txName = s.markMode() == MarkMode.ZERO_WRITE ? s.stateDataSource() : s.dataSource();
        List<RelayCycleHook> allHooks = new ArrayList<>(hooks);
        allHooks.addAll(extraHooks);
        RelayTransactions.Cycle cycle = transactions.cycle(s, txName, allHooks);
        if (cycle.resources() != null) {
            resources.add(cycle.resources());
            relayResources.put(s.relay(), cycle.resources());
        }
        // XA: the store's statements in a cycle run on the database branch of the cycle's global transaction
        OutboxSource store = source(s, mapping, s.markMode() == MarkMode.ZERO_WRITE ? dataSource : cycle.dataSource(),
                dialect, s.dataSource() + "/" + table.name(), label);
        // its attempts on a connection of its own, outside the pool: they are written while the cycle holds one of the
        // pool's; on the cycle's own database, the finish in the cycle's transaction (AttemptLog)
        AttemptLog attempts = s.attemptLog()
                ? new AttemptLog(dataSources.heldConnections(s.stateDataSource(), label.apply("stateDataSource"), 1),
                        dataSources.heldTransactionManager(s.stateDataSource()),
                        dataSources.dialect(s.stateDataSource()),
                        s.relay(), instance, label.apply("attemptLog"),
                        txName.equals(s.stateDataSource()) ? cycle.dataSource() : null,
                        s.transactionMode().name())
                : null;
        CamelContext context = camel.getObject();
        OutboxRelay relay = new OutboxRelay(s, store, cycle.transaction(),
                new OutboxEventMapper(codec, s.source(), s.destination(), s.payloadFormat(),
                        s.maxPayloadBytes()), cycle.publisher(), clock,
                jitter, allHooks, instance, attempts, meters, new RelaySteps(s, codec, context), context, tracing);
        try {
            relay.cycleRoute().addOnceStarted();
        } catch (RuntimeException e) {
            relay.close(); // a step route that publishes or writes: refused, and nothing of the relay is left open
            throw e;
        }
        relays.add(relay);
        listeners.forEach(l -> l.accept(relay));
        RelayChecks.logCreated(s, dialect, table, label);
        return relay;
    }

    /** Where the relay reads its rows, by mark mode, with the log where a row that refuses every write is parked. */
    private OutboxSource source(RelaySettings s, OutboxMapping mapping, DataSource dataSource, Dialect dialect,
                                String source, UnaryOperator<String> label) {
        // outside ZERO_WRITE the state datasource is the relay's own: its rejections are written in the cycle
        DataSource stateDataSource = s.markMode() == MarkMode.ZERO_WRITE
                ? dataSources.get(s.stateDataSource(), label.apply("stateDataSource")) : dataSource;
        Dialect stateDialect = dataSources.dialect(s.stateDataSource());
        boolean retries = s.retry().retries();
        // where the mode does not need it, the log is still where a row that refuses every write is parked
        RejectionLog rejections = OutboxStore.needsRejectionLog(mapping, retries)
                ? new RejectionLog(stateDataSource, stateDialect, s.relay(), source,
                        label.apply(s.markMode() == MarkMode.ZERO_WRITE ? "stateDataSource"
                                : OutboxStore.rejectionLogParameter(mapping, retries)))
                : RejectionLog.ifPresent(stateDataSource, stateDialect, s.relay(), source, label.apply("dataSource"));
        OutboxSource store = s.markMode() == MarkMode.ZERO_WRITE
                ? new ZeroWriteReader(dataSource, dialect, mapping, stateDataSource, stateDialect, rejections,
                        s.relay(), source, s.startFrom(), s.settleTime(), label)
                : new OutboxStore(dataSource, dialect, mapping, rejections, retries,
                        s.failedRowPolicy() == FailedRowPolicy.BLOCK_AGGREGATE, s.claimLease());
        if (s.retention() != null && !(store instanceof OutboxStore o && o.keepsPublishedRows())) {
            throw new IllegalArgumentException(label.apply("retention") + ": deleting published rows by age needs the"
                    + " time of publication; map publishedAtColumn (markMode " + s.markMode() + ") or set"
                    + " retention: off");
        }
        return store;
    }

    /**
     * The domain table with {@code domainTable} and {@code domainKeyColumn} as the database spells them (H2 stores
     * unquoted names in upper case), checked to exist.
     */
    private RelaySettings.DomainTable storedDomain(String relay, String dataSource, RelaySettings.DomainTable domain) {
        String label = RelaySettings.label(relay, "domainTable");
        TableInspector.Table table = TableInspector.inspect(dataSources.get(dataSource, label),
                dataSources.dialect(dataSource), domain.table(), label);
        TableInspector.Column key = table.column(domain.keyColumn()).orElseThrow(() ->
                new IllegalArgumentException(RelaySettings.label(relay, "domainKeyColumn") + ": table "
                        + table.name() + " has no column '" + domain.keyColumn() + "'"));
        return new RelaySettings.DomainTable(table.name(), key.name(), domain.aggregateType());
    }

    /**
     * The route policy that wakes the relay's route up ({@code wakeUp: NOTIFY}); one that does nothing for
     * {@code NONE}.
     */
    public RoutePolicy wakeUp(OutboxRelay relay) {
        RelaySettings s = relay.settings();
        if (s.wakeUp() == WakeUp.NONE) {
            return new RoutePolicySupport() {
            };
        }
        Dialect dialect = dataSources.dialect(s.dataSource());
        String channel = NotifyTrigger.channel(RelaySettings.label(s.relay(), "table"), s.table());
        // the listening connection is held while the relay runs: outside the pool its cycles take theirs from
        OutboxWakeUp wakeUp = new OutboxWakeUp(s.relay(),
                dataSources.heldConnections(s.dataSource(), RelaySettings.label(s.relay(), "dataSource"), 1),
                dialect.sql("wakeUp.listen", Map.of("channel", dialect.quote(channel))),
                dialect.sql("wakeUp.unlisten", Map.of()), channel, s.maxBackoff(), meters);
        wakeUps.put(s.relay(), wakeUp);
        return wakeUp;
    }

    /** The wake-up of the relay of that name, if it has one (operations and tests). */
    public Optional<OutboxWakeUp> wakeUp(String relay) {
        return Optional.ofNullable(wakeUps.get(relay));
    }

    /** The relays created so far (operations and tests). */
    public List<OutboxRelay> relays() {
        return List.copyOf(relays);
    }

    /** Calls {@code listener} for every relay created so far and from now on. */
    public void onCreate(Consumer<OutboxRelay> listener) {
        listeners.add(listener);
        relays.forEach(listener);
    }

    /** The relay of that name, if one was created. */
    public Optional<OutboxRelay> relay(String name) {
        return relays.stream().filter(r -> r.name().equals(name)).findFirst();
    }

    /** Calls {@code listener} for every relay {@link #release released} from now on. */
    public void onRelease(Consumer<OutboxRelay> listener) {
        releaseListeners.add(listener);
    }

    /**
     * Releases the relay of that name once its route has been stopped and removed (a route edited without a restart):
     * closes it (the last cycle's evidence written, its broker connection and attempt-log thread closed) and its XA
     * connection pool, forgets it (operations see the relay that replaces it; the name may be used again) and removes
     * its gauges, which read this relay: the next relay of that name registers its own. Its counters and timers stay
     * registered, and the next relay of that name counts on in them.
     *
     * @return whether a relay of that name was there
     */
    public boolean release(String name) {
        Optional<OutboxRelay> found = relay(name);
        if (found.isEmpty()) {
            return false;
        }
        OutboxRelay relay = found.get();
        relays.remove(relay);
        RelaySettings s = relay.settings();
        if (wakeUps.remove(name) != null) {
            dataSources.releaseHeldConnections(s.dataSource(), 1);
        }
        if (s.attemptLog()) {
            dataSources.releaseHeldConnections(s.stateDataSource(), 1);
        }
        try {
            relay.close();
        } finally {
            AutoCloseable pool = relayResources.remove(name);
            if (pool != null) {
                resources.remove(pool);
                try {
                    pool.close();
                } catch (Exception e) {
                    log.debug("closing relay '{}''s XA connections failed: {}", name, e.toString());
                }
            }
            meters.getMeters().stream()
                    .filter(m -> m instanceof Gauge && name.equals(m.getId().getTag("relay"))
                            && m.getId().getName().startsWith("gateway.outbox."))
                    .forEach(meters::remove);
            releaseListeners.forEach(l -> l.accept(relay));
        }
        return true;
    }

    @Override
    public void destroy() {
        relays.forEach(OutboxRelay::close);
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                log.debug("closing a relay's connections failed: {}", e.toString());
            }
        }
    }

    private static String host() {
        String pid = ManagementFactory.getRuntimeMXBean().getName();
        try {
            return InetAddress.getLocalHost().getHostName() + ":" + ProcessHandle.current().pid();
        } catch (UnknownHostException e) {
            return pid;
        }
    }
}
