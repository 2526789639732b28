package io.legacygateway.relay;

import io.legacygateway.testsupport.OnMariaDb;
import io.legacygateway.testsupport.OutboxRows;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

@OnMariaDb
class MariaDbXaCrashWindowTest extends XaCrashWindowContractTest {

    /** A prepared branch as XA RECOVER lists it. */
    private record Branch(int format, int globalLength, byte[] data) {
    }

    @Override
    protected int preparedBranches(OutboxRows rows, String nodeId) {
        return ours(rows, nodeId).size();
    }

    @Override
    protected void rollBackPrepared(OutboxRows rows, String nodeId) {
        HexFormat hex = HexFormat.of();
        for (Branch b : ours(rows, nodeId)) {
            byte[] global = Arrays.copyOfRange(b.data(), 0, b.globalLength());
            byte[] qualifier = Arrays.copyOfRange(b.data(), b.globalLength(), b.data().length);
            rows.jdbc().execute("XA ROLLBACK X'" + hex.formatHex(global) + "', X'" + hex.formatHex(qualifier) + "', "
                    + b.format());
        }
    }

    /** XA RECOVER lists the server's prepared branches; Narayana's global id carries the node name. */
    private static List<Branch> ours(OutboxRows rows, String nodeId) {
        return rows.jdbc().query("XA RECOVER", (rs, n) -> new Branch(rs.getInt("formatID"),
                        rs.getInt("gtrid_length"), rs.getBytes("data"))).stream()
                .filter(b -> new String(b.data(), StandardCharsets.ISO_8859_1).contains(nodeId)).toList();
    }
}
