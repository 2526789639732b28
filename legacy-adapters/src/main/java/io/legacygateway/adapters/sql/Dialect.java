package io.legacygateway.adapters.sql;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The SQL of one database product. Every statement lives in the resource file {@code dialect/<id>.sql} (falling back
 * to {@code dialect/common.sql}); DDL lives in {@code ddl/<id>/}. Nothing outside this type knows which database it
 * talks to.
 *
 * <p>PostgreSQL, MariaDB/MySQL and H2 are tested against real servers; Oracle and SQL Server statements are provided
 * but {@linkplain #testedHere() not tested here}.
 */
public enum Dialect {
    POSTGRESQL("postgresql", "\"", "\"", true, CommitHorizon.TRANSACTION_IDS),
    MARIADB("mariadb", "`", "`", true, CommitHorizon.INSERT_TIME),
    H2("h2", "\"", "\"", true, CommitHorizon.NONE),
    ORACLE("oracle", "\"", "\"", false, CommitHorizon.NONE),
    SQLSERVER("sqlserver", "[", "]", false, CommitHorizon.NONE);

    /**
     * How a read-only relay ({@code markMode ZERO_WRITE}) proves that no transaction can still commit a row it has not
     * seen. The statements are {@code zerowrite.*} in the dialect's file.
     */
    public enum CommitHorizon {
        /**
         * PostgreSQL 13+: each row's inserting transaction id ({@code xmin}, widened to 64 bits with the current
         * epoch) against {@code pg_snapshot_xmin(pg_current_snapshot())}, below which every transaction has ended.
         */
        TRANSACTION_IDS,
        /**
         * MariaDB: a database-filled insert time against the start of the oldest active InnoDB transaction
         * ({@code information_schema.INNODB_TRX}, needs PROCESS) and of every running statement, minus a settle time.
         */
        INSERT_TIME,
        /** No sound method here: zero-write mode is refused. */
        NONE
    }

    private static final String BASE = "/io/legacygateway/adapters/";

    private final String id;
    private final String openQuote;
    private final String closeQuote;
    private final boolean testedHere;
    private final CommitHorizon commitHorizon;
    private volatile NamedStatements statements;
    private volatile NamedStatements capture;

    Dialect(String id, String openQuote, String closeQuote, boolean testedHere, CommitHorizon commitHorizon) {
        this.id = id;
        this.openQuote = openQuote;
        this.closeQuote = closeQuote;
        this.testedHere = testedHere;
        this.commitHorizon = commitHorizon;
    }

    /** How zero-write mode proves rows final on this database, or {@link CommitHorizon#NONE}. */
    public CommitHorizon commitHorizon() {
        return commitHorizon;
    }

    /**
     * SQLSTATE classes of a statement the database refused for the data of the rows it wrote, not for a fault of the
     * connection, the server or the grants: 09 triggered action exception, 22 data exception (a value too long, out of
     * range), 23 integrity constraint violation (CHECK, NOT NULL, unique), 27 triggered data change violation, 44 WITH
     * CHECK OPTION violation, 45 unhandled user-defined exception (a trigger's {@code SIGNAL SQLSTATE '45000'} on
     * MariaDB/MySQL); on PostgreSQL also P0, a PL/pgSQL {@code RAISE EXCEPTION} (P0001 unless the trigger names another
     * code, which then decides).
     */
    private static final Set<String> ROW_REFUSALS = Set.of("09", "22", "23", "27", "44", "45");

    /**
     * The database's refusal in {@code failure}'s causes when it refused a statement for the data of the rows it wrote
     * (the SQLSTATE classes above), {@code null} for anything else: a lost connection, a timeout, a deadlock (class
     * 40), missing grants (42), a server shutting down (57) are outages, not a row's fault. The first SQL exception
     * that carries a state decides; of a batch, the entry's own exception (PostgreSQL chains it as the next one).
     */
    public SQLException refusedRows(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException e) {
                SQLException entry = e.getNextException() != null ? e.getNextException() : e;
                String state = entry.getSQLState() != null ? entry.getSQLState() : e.getSQLState();
                if (state != null && state.length() >= 2) {
                    String category = state.substring(0, 2).toUpperCase(Locale.ROOT);
                    return ROW_REFUSALS.contains(category) || (this == POSTGRESQL && category.equals("P0"))
                            ? entry : null;
                }
            }
        }
        return null;
    }

    /**
     * The most {@code ?} binds one statement may carry, with room to spare: SQL Server takes 2,100 parameters per
     * statement; the others take tens of thousands (PostgreSQL's protocol and MariaDB 65,535).
     */
    public int maxBindsPerStatement() {
        return this == SQLSERVER ? 2_000 : 30_000;
    }

    /**
     * Whether a relay's cycle takes its row locks inside the savepoint its mark may roll back to, instead of marking in
     * a savepoint taken after the claim. On PostgreSQL a row locked by a transaction and then updated or deleted in one
     * of its subtransactions gets a multixact as its old version's deleter (the lock must outlive a rollback of the
     * subtransaction): every marked row's old version then carried one, which costs the database a multixact per cycle,
     * lookups of it by each later read of that version until vacuum, and earlier anti-wraparound vacuums of the legacy
     * table. Locked and updated by the same subtransaction, the old version carries that transaction id alone. The
     * price: a mark the database refuses rolls the claim's locks back too, so the rows are locked again before they
     * are marked one by one ({@code outbox.relock}). Elsewhere the mark's savepoint follows the claim: no such cost
     * is known there, and a rollback to it leaves the claim's locks alone.
     */
    public boolean claimsInMarkSavepoint() {
        return this == POSTGRESQL;
    }

    /** Whether UUID values are bound as text (the driver has no UUID mapping). */
    public boolean bindsUuidAsText() {
        return this == MARIADB || this == ORACLE || this == SQLSERVER;
    }

    /** Short lowercase name, also the resource folder name. */
    public String id() {
        return id;
    }

    /** False for dialects whose SQL ships without having run against a real server in this project's CI. */
    public boolean testedHere() {
        return testedHere;
    }

    /** Detects the dialect from the JDBC metadata of a live connection; never configured by hand. */
    public static Dialect detect(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return of(c.getMetaData());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read database metadata: " + e.getMessage(), e);
        }
    }

    public static Dialect of(DatabaseMetaData metaData) throws SQLException {
        String product = metaData.getDatabaseProductName().toLowerCase(Locale.ROOT);
        if (product.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return MARIADB;
        }
        if (product.equals("h2")) {
            return H2;
        }
        if (product.contains("oracle")) {
            return ORACLE;
        }
        if (product.contains("microsoft sql server")) {
            return SQLSERVER;
        }
        throw new IllegalStateException("unsupported database product '" + metaData.getDatabaseProductName()
                + "'; supported: PostgreSQL, MariaDB/MySQL, H2, Oracle, SQL Server");
    }

    /** Quotes a validated identifier. */
    public String quote(String identifier) {
        return openQuote + SqlIdentifier.require("identifier", identifier) + closeQuote;
    }

    public String quote(TableName table) {
        return table.schema() == null ? quote(table.table()) : quote(table.schema()) + "." + quote(table.table());
    }

    /**
     * The named statement with its placeholders replaced. Fragment values must be quoted identifiers, other rendered
     * fragments, or {@code ?} lists; never data.
     */
    public String sql(String name, Map<String, String> fragments) {
        return statements().render(name, fragments);
    }

    /** Whether this dialect (or the common file) defines the named statement. */
    public boolean has(String name) {
        return statements().has(name);
    }

    /**
     * A named statement of the trigger-capture DDL ({@code capture/<id>.sql}), placeholders replaced like
     * {@link #sql}. DDL cannot bind values: fragments may also be string literals that the caller validated.
     */
    public String captureSql(String name, Map<String, String> fragments) {
        return captureStatements().render(name, fragments);
    }

    /** Whether the trigger-capture DDL of this dialect defines the named statement. */
    public boolean hasCaptureSql(String name) {
        return captureStatements().has(name);
    }

    private NamedStatements captureStatements() {
        NamedStatements c = capture;
        if (c == null) {
            c = NamedStatements.load(BASE + "capture/" + id + ".sql", null);
            capture = c;
        }
        return c;
    }

    /** Classpath resource of a DDL script for this dialect, for example {@code outbox.sql}. */
    public String ddlResource(String script) {
        return BASE + "ddl/" + id + "/" + script;
    }

    private NamedStatements statements() {
        NamedStatements s = statements;
        if (s == null) {
            s = NamedStatements.load(BASE + "dialect/" + id + ".sql",
                    NamedStatements.load(BASE + "dialect/common.sql", null));
            statements = s;
        }
        return s;
    }
}
