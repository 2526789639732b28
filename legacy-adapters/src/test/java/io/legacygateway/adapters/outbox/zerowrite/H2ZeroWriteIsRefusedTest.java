package io.legacygateway.adapters.outbox.zerowrite;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.outbox.store.OutboxStore;
import io.legacygateway.adapters.outbox.store.RejectionLog;
import io.legacygateway.adapters.sql.GatewaySchema;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.adapters.testsupport.ContractDatabase;
import io.legacygateway.adapters.testsupport.TestSchema;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** H2 offers no commit horizon a client can read: a zero-write relay is refused at startup, naming markMode. */
class H2ZeroWriteIsRefusedTest {

    @Test
    void zeroWriteIsRefusedNamingTheParameter() throws Exception {
        try (TestSchema schema = TestSchema.create(ContractDatabase.H2, getClass(), GatewaySchema.OUTBOX,
                GatewaySchema.RELAY)) {
            TableInspector.Table table = TableInspector.inspect(schema.dataSource(), schema.dialect(),
                    new TableName(null, "outbox"), "table");
            OutboxMapping mapping = OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.ZERO_WRITE,
                    Map.of(), "PENDING", "PUBLISHED", "FAILED", PayloadFormat.JSON, ZoneOffset.UTC), p -> p);
            RejectionLog log = new RejectionLog(schema.dataSource(), schema.dialect(), "zw", "h2/outbox", "dataSource");

            assertThatThrownBy(() -> new ZeroWriteReader(schema.dataSource(), schema.dialect(), mapping,
                    schema.dataSource(), schema.dialect(), log, "zw", "h2/outbox", ZeroWriteReader.StartFrom.BEGINNING,
                    Duration.ZERO, p -> "relay 'zw' parameter '" + p + "'"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("relay 'zw' parameter 'markMode': ZERO_WRITE needs a way to prove");
            assertThatThrownBy(() -> new OutboxStore(schema.dataSource(), schema.dialect(), mapping, log, true, false))
                    .hasMessageContaining("ZERO_WRITE does not claim rows");
        }
    }
}
