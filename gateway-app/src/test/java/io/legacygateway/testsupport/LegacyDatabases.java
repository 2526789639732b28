package io.legacygateway.testsupport;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.SchemaScripts;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Registers a fresh schema of a real database as datasource {@code gateway.datasources.<name>} of a test's Spring
 * context, with every part of the gateway's DDL already applied (as its owner would: the tests write outbox rows and
 * read the gateway's tables before any relay or consumer exists) and {@code initialize-schema} on. Dropped when the
 * JVM exits.
 */
public final class LegacyDatabases {

    private static final Map<String, String> urls = new ConcurrentHashMap<>();

    private LegacyDatabases() {
    }

    public static void register(DynamicPropertyRegistry registry, String dataSource, TestDatabase db,
                                Class<?> testClass) {
        register(registry, dataSource, db, testClass, UnaryOperator.identity());
    }

    /**
     * As {@link #register(DynamicPropertyRegistry, String, TestDatabase, Class)}, with the gateway's URL rewritten,
     * for example to reach the database through a {@link TcpProxy}.
     */
    public static void register(DynamicPropertyRegistry registry, String dataSource, TestDatabase db,
                                Class<?> testClass, UnaryOperator<String> gatewayUrl) {
        String prefix = "gateway.datasources." + dataSource + ".";
        registry.add(prefix + "url", () -> gatewayUrl.apply(directUrl(dataSource, db, testClass)));
        registry.add(prefix + "username", db::username);
        registry.add(prefix + "password", () -> "");
        registry.add(prefix + "initialize-schema", () -> "true");
    }

    /**
     * The properties {@link #register(DynamicPropertyRegistry, String, TestDatabase, Class)} registers, resolved (the
     * schema created on first use): what {@link OnPostgres}, {@link OnMariaDb} and {@link OnH2} give a Spring test.
     */
    public static Map<String, Object> properties(String dataSource, TestDatabase db, Class<?> testClass) {
        String prefix = "gateway.datasources." + dataSource + ".";
        return Map.of(prefix + "url", directUrl(dataSource, db, testClass), prefix + "username", db.username(),
                prefix + "password", "", prefix + "initialize-schema", "true");
    }

    /** The JDBC URL of the test class's schema, straight to the database (created on first use). */
    public static String directUrl(String dataSource, TestDatabase db, Class<?> testClass) {
        return urls.computeIfAbsent(testClass.getName() + "/" + dataSource + "/" + db, k -> create(db, testClass));
    }

    private static String create(TestDatabase db, Class<?> testClass) {
        String name = TestDatabase.uniqueName(testClass);
        try {
            String url = db.create(name);
            DriverManagerDataSource ds = new DriverManagerDataSource(url, db.username(), "");
            Dialect dialect = Dialect.detect(ds);
            for (GatewaySchema part : GatewaySchema.values()) {
                SchemaScripts.apply(ds, dialect, part);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    db.drop(name);
                } catch (SQLException ignored) {
                    // best effort: a leftover schema has a unique name and harms nothing
                }
            }));
            return url;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test schema " + name + " on " + db
                    + " (is the database running? .ci/run starts it): " + e.getMessage(), e);
        }
    }
}
