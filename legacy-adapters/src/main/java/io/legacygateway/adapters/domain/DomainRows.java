package io.legacygateway.adapters.domain;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableName;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The application's own domain table, as reconciliation reads it: read-only, it never writes a row. Keys are compared
 * as text, as the intents' aggregate ids are; the table and key column are quoted identifiers, every key a {@code ?}
 * bind ({@code reconciliation.domainRows} of the dialect).
 */
public final class DomainRows {

    /** Binds per statement: below every supported database's limit on an IN list. */
    static final int IN_LIST = 500;

    private final Dialect dialect;
    private final JdbcTemplate jdbc;
    private final TableName table;
    private final String keyColumn;

    public DomainRows(DataSource dataSource, Dialect dialect, TableName table, String keyColumn) {
        this.dialect = dialect;
        this.jdbc = new JdbcTemplate(dataSource);
        this.table = table;
        this.keyColumn = keyColumn;
    }

    /** Which of these keys (as text) have a domain row; any number of keys, read in chunks of {@value #IN_LIST}. */
    public Set<String> existing(Collection<String> keys) {
        Set<String> found = new HashSet<>();
        List<String> all = List.copyOf(keys);
        for (int i = 0; i < all.size(); i += IN_LIST) {
            List<String> chunk = all.subList(i, Math.min(all.size(), i + IN_LIST));
            String sql = dialect.sql("reconciliation.domainRows", Map.of("domain", dialect.quote(table),
                    "key", dialect.quote(keyColumn), "ids", String.join(", ", Collections.nCopies(chunk.size(), "?"))));
            found.addAll(jdbc.queryForList(sql, String.class, chunk.toArray()));
        }
        return found;
    }
}
