package io.legacygateway.demo;

import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.config.GatewayProperties;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
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
 * The demo's legacy application: it knows nothing of brokers. It writes an order and its outbox row in one JDBC
 * transaction (OrderCreated), and later marks some orders paid the same way (OrderPaid), as an application that adopted
 * the outbox pattern would. The gateway's relay does the rest.
 */
public class DemoLegacyApplication implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(DemoLegacyApplication.class);
    private static final List<String> CUSTOMERS = List.of("alice", "bob", "carol", "dave", "erin");

    private final DataSource dataSource;
    private final GatewayProperties.Demo settings;
    private final Clock clock;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "demo-legacy-app");
        t.setDaemon(true);
        return t;
    });
    private final Deque<Order> unpaid = new ArrayDeque<>();
    private final AtomicLong orders = new AtomicLong();

    public DemoLegacyApplication(GatewayDataSources dataSources, GatewayProperties properties, Clock clock) {
        this.settings = properties.demo();
        this.dataSource = dataSources.get(settings.dataSource(), "gateway.demo.data-source");
        this.clock = clock;
    }

    @Override
    public void afterPropertiesSet() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            ScriptUtils.executeSqlScript(c, new ClassPathResource("demo/h2-orders.sql"));
        }
        long period = settings.orderInterval().toMillis();
        executor.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
        log.info("Demo legacy application writes an order every {} ms into datasource '{}'", period,
                settings.dataSource());
    }

    /** Writes one business change and its outbox row in one local transaction. */
    void tick() {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                if (unpaid.size() > 2 && ThreadLocalRandom.current().nextBoolean()) {
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
        outbox(c, order, "OrderCreated",
                "{\"orderId\":\"" + order + "\",\"customerId\":\"" + customer + "\",\"amount\":" + amount + "}");
        log.info("Demo legacy application: order {} created for {} ({}), outbox row written (#{})", order, customer,
                amount, orders.incrementAndGet());
        return new Order(order, customer, amount);
    }

    private void pay(Connection c, Order order) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET status = 'PAID' WHERE id = ?")) {
            ps.setString(1, order.id());
            ps.executeUpdate();
        }
        outbox(c, order.id(), "OrderPaid", "{\"orderId\":\"" + order.id() + "\",\"customerId\":\"" + order.customer()
                + "\",\"amount\":" + order.amount() + "}");
        log.info("Demo legacy application: order {} paid by {}, outbox row written", order.id(), order.customer());
    }

    private void outbox(Connection c, String order, String type, String payload) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (id, aggregate_type, aggregate_id, "
                + "event_type, event_version, payload, occurred_at, correlation_id) VALUES (?, 'Order', ?, ?, 1, ?, ?, ?)")) {
            ps.setString(1, UUID.randomUUID().toString());
            ps.setString(2, order);
            ps.setString(3, type);
            ps.setString(4, payload);
            ps.setTimestamp(5, Timestamp.from(clock.instant()));
            ps.setString(6, order);
            ps.executeUpdate();
        }
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
