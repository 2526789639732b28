package io.legacygateway.config;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

/**
 * Whether one JDBC failure says the connection to the database is gone or could not be made: a connection exception
 * type, SQLSTATE class {@code 08} (connection exception), or PostgreSQL's {@code 57P01-57P03} (the server ended or
 * refused the session). Callers walk a failure's causes themselves; this looks at one throwable only.
 */
public final class LostConnection {

    private LostConnection() {
    }

    public static boolean is(Throwable t) {
        if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
            return true;
        }
        return t instanceof SQLException sql && sql.getSQLState() != null
                && (sql.getSQLState().startsWith("08") || sql.getSQLState().matches("57P0[123]"));
    }
}
