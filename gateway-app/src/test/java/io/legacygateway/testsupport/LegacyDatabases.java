package io.legacygateway.testsupport;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Registers a fresh schema of a real database as datasource {@code gateway.datasources.<name>} of a test's Spring
 * context, with the gateway's own tables created ({@code initialize-schema}). Dropped when the JVM exits.
 */
public final class LegacyDatabases {

    private static final Map<String, String> urls = new ConcurrentHashMap<>();

    private LegacyDatabases() {
    }

    public static void register(DynamicPropertyRegistry registry, String dataSource, TestDatabase db,
                                Class<?> testClass) {
        String key = testClass.getName() + "/" + dataSource + "/" + db;
        String prefix = "gateway.datasources." + dataSource + ".";
        registry.add(prefix + "url", () -> urls.computeIfAbsent(key, k -> create(db, testClass)));
        registry.add(prefix + "username", db::username);
        registry.add(prefix + "password", () -> "");
        registry.add(prefix + "initialize-schema", () -> "true");
    }

    private static String create(TestDatabase db, Class<?> testClass) {
        String name = TestDatabase.uniqueName(testClass);
        try {
            String url = db.create(name);
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
