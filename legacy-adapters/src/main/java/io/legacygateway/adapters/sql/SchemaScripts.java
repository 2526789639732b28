package io.legacygateway.adapters.sql;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
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
}
