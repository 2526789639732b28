package io.legacygateway.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The prepared (in-doubt) branches that a test's gateway (its transaction node name) left on a database, counted and
 * rolled back as a database administrator would: a branch left by a failed test holds its row locks, and the schema's
 * drop at the JVM's exit would wait for it.
 */
public final class PreparedBranches {

    /** A prepared branch as MariaDB's XA RECOVER lists it. */
    private record MariaDbBranch(int format, int globalLength, byte[] data) {
    }

    private PreparedBranches() {
    }

    public static int count(TestDatabase db, JdbcTemplate jdbc, String nodeId) {
        return db == TestDatabase.POSTGRES ? postgres(jdbc, nodeId).size() : mariaDb(jdbc, nodeId).size();
    }

    public static void rollBack(TestDatabase db, JdbcTemplate jdbc, String nodeId) {
        if (db == TestDatabase.POSTGRES) {
            postgres(jdbc, nodeId).forEach(gid -> jdbc.execute("ROLLBACK PREPARED '" + gid + "'"));
            return;
        }
        HexFormat hex = HexFormat.of();
        for (MariaDbBranch b : mariaDb(jdbc, nodeId)) {
            byte[] global = Arrays.copyOfRange(b.data(), 0, b.globalLength());
            byte[] qualifier = Arrays.copyOfRange(b.data(), b.globalLength(), b.data().length);
            jdbc.execute("XA ROLLBACK X'" + hex.formatHex(global) + "', X'" + hex.formatHex(qualifier) + "', "
                    + b.format());
        }
    }

    /** pgjdbc's transaction ids: format id, then the global id and the branch qualifier in Base64. */
    private static List<String> postgres(JdbcTemplate jdbc, String nodeId) {
        return jdbc.queryForList("SELECT gid FROM pg_prepared_xacts WHERE database = current_database()",
                String.class).stream().filter(gid -> gid.split("_").length == 3 && new String(Base64.getDecoder()
                        .decode(gid.split("_")[1]), StandardCharsets.ISO_8859_1).contains(nodeId)).toList();
    }

    /** XA RECOVER lists the server's prepared branches; Narayana's global id carries the node name. */
    private static List<MariaDbBranch> mariaDb(JdbcTemplate jdbc, String nodeId) {
        return jdbc.query("XA RECOVER", (rs, n) -> new MariaDbBranch(rs.getInt("formatID"),
                        rs.getInt("gtrid_length"), rs.getBytes("data"))).stream()
                .filter(b -> new String(b.data(), StandardCharsets.ISO_8859_1).contains(nodeId)).toList();
    }
}
