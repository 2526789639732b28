package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.capture.CaptureGrants.Missing;
import io.legacygateway.adapters.capture.CaptureTriggers.Account;
import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector.Table;
import io.legacygateway.adapters.sql.TableName;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link CaptureGrants} on PostgreSQL: what the installer and the owner of the SECURITY DEFINER function lack, asked
 * with {@code has_table_privilege} and its siblings ({@code capture.grants.*}).
 */
final class PostgresGrants {

    private final Dialect d;
    private final CaptureGrants queries;

    PostgresGrants(Dialect d, CaptureGrants queries) {
        this.d = d;
        this.queries = queries;
    }

    /** See {@link CaptureGrants#check}; {@code other}: the owner is not the installer. */
    List<Missing> missing(Table table, Table outbox, Account installer, Account owner, boolean other,
                          boolean snapshot, List<TableName> descendants) throws SQLException {
        List<Missing> missing = new ArrayList<>();
        String t = d.quote(table.name());
        String o = d.quote(outbox.name());
        String inst = installer.user();
        if (!queries.bool("capture.grants.table", inst, t, "TRIGGER")) {
            missing.add(new Missing("TRIGGER", inst, table.name().toString(), "to create the trigger"));
        }
        for (TableName below : descendants) {
            if (!queries.bool("capture.grants.table", inst, d.quote(below), "TRIGGER")) {
                missing.add(new Missing("TRIGGER", inst, below.toString(), "to create the trigger on this child or"
                        + " partition of " + table.name() + ", where its rows are written"));
            }
        }
        if (table.name().schema() != null && !queries.bool("capture.grants.schema", inst, table.name().schema(), "CREATE")) {
            missing.add(new Missing("CREATE", inst, "schema " + table.name().schema(), "to create the function"));
        }
        if (other) {
            if (queries.count("capture.grants.account", owner.user()) == 0) {
                missing.add(new Missing("(role does not exist)", owner.user(), "the cluster", "as --definer"));
                return missing;
            }
            if (!queries.bool("capture.grants.member", inst, owner.user())) {
                missing.add(new Missing("membership in role " + owner.user(), inst, "the cluster",
                        "to make " + owner.user() + " the function's owner"));
            }
            if (table.name().schema() != null && !queries.bool("capture.grants.schema", owner.user(), table.name().schema(),
                    "CREATE")) {
                missing.add(new Missing("CREATE", owner.user(), "schema " + table.name().schema(),
                        "to own the function"));
            }
        }
        String asOwner = "by the trigger at every write of the application: its SECURITY DEFINER function writes"
                + " the outbox as its owner " + owner.user();
        insert(missing, owner.user(), outbox, o, asOwner);
        if (snapshot) {
            String forSnapshot = "for --snapshot (it reads the rows already there)";
            if (!queries.bool("capture.grants.table", inst, t, "SELECT")) {
                missing.add(new Missing("SELECT", inst, table.name().toString(), forSnapshot));
            }
            if (other) {
                insert(missing, inst, outbox, o, forSnapshot);
            }
        }
        return missing;
    }

    private void insert(List<Missing> missing, String role, Table outbox, String quoted, String neededFor)
            throws SQLException {
        if (outbox.name().schema() != null && !queries.bool("capture.grants.schema", role, outbox.name().schema(), "USAGE")) {
            missing.add(new Missing("USAGE", role, "schema " + outbox.name().schema(), neededFor));
        }
        if (queries.bool("capture.grants.table", role, quoted, "INSERT")) {
            return;
        }
        List<String> lacking = new ArrayList<>();
        for (String column : CaptureGrants.outboxColumns(outbox)) {
            if (!queries.bool("capture.grants.column", role, quoted, column, "INSERT")) {
                lacking.add(column);
            }
        }
        if (!lacking.isEmpty()) {
            missing.add(new Missing("INSERT", role, outbox.name() + " (columns " + String.join(", ", lacking) + ")",
                    neededFor));
        }
    }
}
