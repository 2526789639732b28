package io.legacygateway.adapters.outbox.zerowrite;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Where a zero-write relay keeps its {@link ZeroWritePosition}: one row per relay of {@value ZeroWriteReader#TABLE} in
 * the state datasource, which names the source table it belongs to. {@link #lock} and {@link #save} run in the
 * cycle's transaction: the lock keeps one relay instance at a time on a position until that transaction ends.
 */
final class ZeroWritePositions {

    private final DataSource state;
    private final Dialect dialect;
    private final JdbcTemplate jdbc;
    private final String relay;
    private final String positions;

    /** @throws IllegalArgumentException naming the state datasource's parameter when the table does not exist */
    ZeroWritePositions(DataSource state, Dialect dialect, String relay, UnaryOperator<String> label) {
        this.state = state;
        this.dialect = dialect;
        this.jdbc = new JdbcTemplate(state);
        this.relay = relay;
        String table = ZeroWriteReader.TABLE;
        this.positions = dialect.quote(TableInspector.inspect(state, dialect, new TableName(null, table),
                label.apply("stateDataSource") + " (the gateway's table " + table + ", created by initialize-schema or "
                + dialect.ddlResource("relay-state.sql") + ")").name());
    }

    /**
     * Creates the relay's position at {@code start} unless it has one (kept from an earlier run), in a transaction of
     * its own.
     *
     * @throws IllegalArgumentException naming the relay parameter when the position belongs to another source table
     */
    void create(String source, ZeroWritePosition start, UnaryOperator<String> label) {
        try {
            new TransactionTemplate(new DataSourceTransactionManager(state)).executeWithoutResult(tx ->
                    jdbc.update(sql("position.insert"), relay, source, start.low()));
        } catch (DuplicateKeyException existing) {
            // kept from an earlier run
        }
        String owner = jdbc.queryForObject(sql("position.source"), String.class, relay);
        if (!source.equals(owner)) {
            throw new IllegalArgumentException(label.apply("relay") + ": the position of relay '" + relay + "' in "
                    + ZeroWriteReader.TABLE + " belongs to '" + owner + "', not '" + source + "'; choose another relay"
                    + " name (or delete that row to start this table from scratch)");
        }
    }

    /** Whether the relay has a position (kept from an earlier run). */
    boolean exists() {
        return !query("position.read").isEmpty();
    }

    /** The position, locked until the caller's transaction ends. */
    ZeroWritePosition lock() {
        List<ZeroWritePosition> found = query("position.lock");
        if (found.isEmpty()) {
            throw new IllegalStateException("the position of relay '" + relay + "' has disappeared from "
                    + ZeroWriteReader.TABLE);
        }
        return found.get(0);
    }

    /** The position as last committed, unlocked (a relay that has none yet reads as at the beginning). */
    ZeroWritePosition read() {
        List<ZeroWritePosition> found = query("position.read");
        return found.isEmpty() ? ZeroWritePosition.startingAt(null) : found.get(0);
    }

    /** Writes the position in the caller's transaction; it commits with the cycle. */
    void save(ZeroWritePosition p) {
        jdbc.update(sql("position.update"), p.low(), p.high(), p.afterOrder(), p.afterKey(), relay);
    }

    private List<ZeroWritePosition> query(String statement) {
        return jdbc.query(sql(statement), (rs, n) -> new ZeroWritePosition(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4)), relay);
    }

    private String sql(String name) {
        return dialect.sql(name, Map.of("positions", positions));
    }
}
