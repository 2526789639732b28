package io.legacygateway.adapters.sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ScriptUtils;

/** Applies the DDL scripts shipped per dialect ({@code ddl/<dialect>/<script>}). Only on request: never implicitly. */
public final class SchemaScripts {

    private SchemaScripts() {
    }

    /** Runs a dialect's script, for example {@code outbox.sql}; every statement is idempotent ({@code IF NOT EXISTS}). */
    public static void apply(DataSource dataSource, Dialect dialect, String script) {
        try (Connection c = dataSource.getConnection()) {
            ScriptUtils.executeSqlScript(c, new ClassPathResource(dialect.ddlResource(script)));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot apply " + dialect.ddlResource(script) + ": " + e.getMessage(), e);
        }
    }

    /** Runs one part of the gateway's DDL ({@link GatewaySchema}); idempotent like every script. */
    public static void apply(DataSource dataSource, Dialect dialect, GatewaySchema part) {
        apply(dataSource, dialect, part.script());
    }

    /**
     * Runs the default outbox script ({@code outbox.sql}) for a table of another name: the table and its index and
     * constraint names are renamed, nothing else changes. The {@code lab} command makes its outbox this way, so that it
     * has exactly the default schema.
     *
     * @param table a safe identifier ({@link SqlIdentifier})
     */
    public static void applyOutboxAs(DataSource dataSource, Dialect dialect, String table) {
        SqlIdentifier.require("table", table);
        ClassPathResource script = new ClassPathResource(dialect.ddlResource("outbox.sql"));
        String sql;
        try {
            sql = script.getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + script.getPath(), e);
        }
        String renamed = sql.replaceAll("\\boutbox\\b", table).replaceAll("\\b(ix|uk)_outbox_", "$1_" + table + "_");
        try (Connection c = dataSource.getConnection()) {
            ScriptUtils.executeSqlScript(c, new ByteArrayResource(renamed.getBytes(StandardCharsets.UTF_8),
                    script.getPath() + " as " + table));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot apply " + script.getPath() + " as " + table + ": "
                    + e.getMessage(), e);
        }
    }
}
