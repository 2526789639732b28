package io.legacygateway.demo;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.SchemaScripts;
import io.legacygateway.capture.TriggersCommand;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.command.CommandBeans;
import io.legacygateway.config.GatewayDataSources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/**
 * The demo's legacy application: it knows nothing of brokers. Three parts of it show three ways in:
 * <ul>
 *   <li>orders: it writes an order and its outbox row in one JDBC transaction (OrderCreated, later OrderPaid), as an
 *       application that adopted the outbox pattern would;</li>
 *   <li>customers: it writes plain rows and no outbox at all; the gateway's capture triggers (installed at startup
 *       with the {@code triggers} command) turn each change into a CustomerInserted/CustomerUpdated event;</li>
 *   <li>billing: when an order is paid it queues an invoice event in its own old table {@code EVT_QUEUE}, whose
 *       columns a relay maps.</li>
 * </ul>
 * The gateway's relays do the rest.
 */
public class DemoLegacyApplication implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(DemoLegacyApplication.class);
    private static final List<String> CUSTOMERS = List.of("alice", "bob", "carol", "dave", "erin");

    private final DataSource dataSource;
    private final DemoProperties settings;
    private final Clock clock;
    /** What the {@code triggers} command takes from the configuration: the datasources. */
    private final CommandBeans commandBeans;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-legacy-app");
        t.setDaemon(true);
        return t;
    });
    private final Dialect dialect;
    private final Deque<Order> unpaid = new ArrayDeque<>();
    private final AtomicLong orders = new AtomicLong();

    public DemoLegacyApplication(GatewayDataSources dataSources, DemoProperties settings, Clock clock) {
        this.settings = settings;
        this.dataSource = dataSources.get(settings.dataSource(), "demo.data-source");
        this.dialect = dataSources.dialect(settings.dataSource());
        this.clock = clock;
        this.commandBeans = CommandBeans.given(dataSources);
    }

    @Override
    public void afterPropertiesSet() throws Exception {
        // the application owns its tables, the gateway's default outbox among them: its rows are written from the start
        SchemaScripts.apply(dataSource, dialect, GatewaySchema.OUTBOX);
        try (Connection c = dataSource.getConnection()) {
            ScriptUtils.executeSqlScript(c, new ClassPathResource("demo/h2-orders.sql"));
        }
        captureCustomers();
        for (String customer : CUSTOMERS) {
            try (Connection c = dataSource.getConnection();
                 PreparedStatement ps = c.prepareStatement("INSERT INTO customers (id, name, email) "
                         + "SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM customers WHERE id = ?)")) {
                ps.setString(1, customer);
                ps.setString(2, Character.toUpperCase(customer.charAt(0)) + customer.substring(1));
                ps.setString(3, customer + "@example.org");
                ps.setString(4, customer);
                ps.executeUpdate();
            }
        }
        long period = settings.orderInterval().toMillis();
        executor.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
        log.info("Demo legacy application writes an order every {} ms into datasource '{}'", period,
                settings.dataSource());
    }

    /**
     * Installs the capture of the customers table exactly as an operator would on the command line:
     * {@code java -jar gateway-app.jar triggers --data-source=demo --table=customers --outbox-table=customer_outbox
     * --event-type-prefix=Customer --aggregate-type=Customer --install}.
     */
    private void captureCustomers() throws Exception {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int status = GatewayCli.execute(new TriggersCommand(), List.of("--data-source=" + settings.dataSource(),
                "--table=customers", "--outbox-table=customer_outbox", "--event-type-prefix=Customer",
                "--aggregate-type=Customer", "--install"), commandBeans, new PrintStream(output, true,
                StandardCharsets.UTF_8));
        String report = output.toString(StandardCharsets.UTF_8).strip();
        if (status != 0) {
            throw new IllegalStateException("demo: cannot capture the customers table: " + report);
        }
        log.info("Demo legacy application: {}", report);
    }

    /** Writes one business change (and, for orders and billing, its event row) in one local transaction. */
    void tick() {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (ThreadLocalRandom.current().nextInt(5) == 0) {
                    changeEmail(c, CUSTOMERS.get(ThreadLocalRandom.current().nextInt(CUSTOMERS.size())));
                } else if (unpaid.size() > 2 && ThreadLocalRandom.current().nextBoolean()) {
                    pay(c, unpaid.pollFirst());
                } else {
                    unpaid.addLast(create(c));
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            log.warn("Demo legacy application: write failed: {}", e.toString());
        }
    }

    private record Order(String id, String customer, BigDecimal amount) {
    }

    private Order create(Connection c) throws SQLException {
        String order = UUID.randomUUID().toString();
        String customer = CUSTOMERS.get(ThreadLocalRandom.current().nextInt(CUSTOMERS.size()));
        BigDecimal amount = BigDecimal.valueOf(ThreadLocalRandom.current().nextInt(500, 20000), 2);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO orders (id, customer_id, amount, status) VALUES (?, ?, ?, 'CREATED')")) {
            ps.setString(1, order);
            ps.setString(2, customer);
            ps.setBigDecimal(3, amount);
            ps.executeUpdate();
        }
        long n = orders.incrementAndGet();
        // the legacy code is being upgraded: every other order is written in version 2 of OrderCreated, and the
        // wallet's inbox upcasts version 1 (routes/demo/inbox-wallet.yaml)
        int version = n % 2 == 0 ? 2 : 1;
        outbox(c, order, "OrderCreated", version, version == 1
                ? "{\"orderId\":\"" + order + "\",\"customerId\":\"" + customer + "\",\"amount\":" + amount + "}"
                : "{\"orderId\":\"" + order + "\",\"customer\":{\"id\":\"" + customer + "\"},\"total\":{\"amount\":"
                        + amount + ",\"currency\":\"EUR\"}}");
        log.info("Demo legacy application: order {} created for {} ({}), outbox row written (#{}, OrderCreated"
                + " version {})", order, customer, amount, n, version);
        return new Order(order, customer, amount);
    }

    private void pay(Connection c, Order order) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET status = 'PAID' WHERE id = ?")) {
            ps.setString(1, order.id());
            ps.executeUpdate();
        }
        outbox(c, order.id(), "OrderPaid", 1, "{\"orderId\":\"" + order.id() + "\",\"customerId\":\"" + order.customer()
                + "\",\"amount\":" + order.amount() + "}");
        String invoice = "INV-" + Long.toString(Math.abs(order.id().hashCode()) % 100_000_000L);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO EVT_QUEUE (EVT_KIND, REF_NO, BODY, CREATED) VALUES ('InvoiceIssued', ?, ?, ?)")) {
            ps.setString(1, invoice);
            // the billing module's own format, not the integration contract: the relay's step maps it
            ps.setString(2, "<invoice no=\"" + invoice + "\" order=\"" + order.id() + "\"><amount currency=\"EUR\">"
                    + order.amount() + "</amount></invoice>");
            ps.setObject(3, LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC));
            ps.executeUpdate();
        }
        log.info("Demo legacy application: order {} paid by {}, outbox row and billing event {} written", order.id(),
                order.customer(), invoice);
    }

    /** A plain update: no outbox code here, the capture trigger writes the event. */
    private void changeEmail(Connection c, String customer) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE customers SET email = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?")) {
            ps.setString(1, customer + "+" + ThreadLocalRandom.current().nextInt(1000) + "@example.org");
            ps.setString(2, customer);
            ps.executeUpdate();
        }
        log.info("Demo legacy application: customer {} changed their e-mail address (no outbox code)", customer);
    }

    private void outbox(Connection c, String order, String type, int version, String payload) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (id, aggregate_type, aggregate_id, "
                + "event_type, event_version, payload, occurred_at, correlation_id)"
                + " VALUES (?, 'Order', ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, order);
            ps.setString(3, type);
            ps.setInt(4, version);
            ps.setString(5, payload);
            ps.setTimestamp(6, Timestamp.from(clock.instant()));
            ps.setString(7, order);
            ps.executeUpdate();
        }
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
