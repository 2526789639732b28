package io.legacygateway.adapters.outbox.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.adapters.outbox.mapping.ColumnKind;
import io.legacygateway.adapters.outbox.mapping.MarkMode;
import io.legacygateway.adapters.outbox.mapping.OutboxColumn;
import io.legacygateway.adapters.outbox.mapping.OutboxMapping;
import io.legacygateway.adapters.outbox.mapping.PayloadFormat;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A value the relay writes that its column cannot hold would make every mark fail (or, where the database truncates
 * silently, write another value): the mapping refuses it at startup, naming the parameter, from the column's type and
 * size as the JDBC metadata reports them. The databases' own metadata is exercised by
 * {@code MarkFailingForOneRowIsChargedToThatRowContractTest}; here the ranges of each column type.
 */
class MarkValuesMustFitTheirColumnsTest {

    private static final UnaryOperator<String> LABEL = p -> "outbox-relay 'r' parameter '" + p + "'";

    private static TableInspector.Table table(TableInspector.Column status, TableInspector.Column... more) {
        Map<String, TableInspector.Column> columns = new LinkedHashMap<>();
        columns.put("seq", new TableInspector.Column("seq", Types.BIGINT, "int8", false, null, 19, 0));
        for (String name : List.of("id", "aggregate_type", "aggregate_id", "event_type", "payload")) {
            columns.put(name, new TableInspector.Column(name, Types.VARCHAR, "varchar", false, null, 255, 0));
        }
        columns.put("status", status);
        for (TableInspector.Column c : more) {
            columns.put(c.name(), c);
        }
        return new TableInspector.Table(new TableName(null, "outbox"), columns, List.of("seq"));
    }

    private static TableInspector.Column status(int jdbcType, String typeName, int size) {
        return new TableInspector.Column("status", jdbcType, typeName, false, null, size, 0);
    }

    private static OutboxMapping resolve(TableInspector.Table table, String pending, String published, String failed) {
        return OutboxMapping.resolve(table, new OutboxMapping.Settings(MarkMode.STATUS, Map.of(), pending, published,
                failed, PayloadFormat.JSON, ZoneOffset.UTC), LABEL);
    }

    @Test
    void aTextStatusLongerThanTheColumnIsRefusedNamingItsParameter() {
        assertThatThrownBy(() -> resolve(table(status(Types.VARCHAR, "varchar", 6)), "WAIT", "PUBLISHED", "FAIL"))
                .hasMessage("outbox-relay 'r' parameter 'publishedStatus': 'PUBLISHED' does not fit column 'status'"
                        + " varchar(6) of table 'outbox' (at most 6 characters)");
        assertThatCode(() -> resolve(table(status(Types.VARCHAR, "varchar", 16)), "PENDING", "PUBLISHED", "FAILED"))
                .doesNotThrowAnyException();
        assertThatCode(() -> resolve(table(status(Types.VARCHAR, "text", 0)), "PENDING", "PUBLISHED", "FAILED"))
                .as("a size the driver does not report is not checked").doesNotThrowAnyException();
    }

    @Test
    void anIntegerStatusOutOfTheColumnsRangeIsRefused() {
        assertThatThrownBy(() -> resolve(table(status(Types.SMALLINT, "int2", 5)), "0", "1", "40000"))
                .hasMessage("outbox-relay 'r' parameter 'failedStatus': '40000' does not fit column 'status' int2 of"
                        + " table 'outbox' (-32768 to 32767)");
        assertThatThrownBy(() -> resolve(table(status(Types.TINYINT, "TINYINT UNSIGNED", 3)), "-1", "1", "2"))
                .hasMessageContaining("parameter 'pendingStatus': '-1'").hasMessageEndingWith("(0 to 255)");
        assertThatThrownBy(() -> resolve(table(status(Types.INTEGER, "MEDIUMINT", 7)), "0", "8388608", "2"))
                .hasMessageEndingWith("(-8388608 to 8388607)");
        assertThatCode(() -> resolve(table(status(Types.TINYINT, "TINYINT", 3)), "0", "1", "127"))
                .doesNotThrowAnyException();
    }

    @Test
    void statusValuesThatACollationCannotTellApartAreRefused() {
        TableInspector.Table t = table(status(Types.CHAR, "bpchar", 4));
        assertThatThrownBy(() -> resolve(t, "P", "S", "p"))
                .hasMessage("outbox-relay 'r' parameter 'failedStatus': 'p' cannot be told apart from pendingStatus"
                        + " 'P' (the status values must differ, also ignoring case and trailing blanks as a column's"
                        + " collation may)");
        assertThatThrownBy(() -> resolve(table(status(Types.INTEGER, "int4", 10)), "0", "00", "2"))
                .hasMessageStartingWith("outbox-relay 'r' parameter 'publishedStatus': '00' cannot be told apart");
    }

    @Test
    void maxAttemptsBeyondTheIntegerDigitsOfADecimalRetryCountIsRefused() {
        OutboxMapping m = resolve(table(status(Types.VARCHAR, "varchar", 16),
                new TableInspector.Column("retry_count", Types.NUMERIC, "numeric", false, null, 3, 2)),
                "PENDING", "PUBLISHED", "FAILED");
        assertThatThrownBy(() -> m.requireFits(OutboxColumn.RETRY_COUNT, "maxAttempts", "10", "10 attempts", LABEL))
                .hasMessage("outbox-relay 'r' parameter 'maxAttempts': 10 attempts does not fit column 'retry_count'"
                        + " numeric(3,2) of table 'outbox' (at most 1 integer digits)");
        assertThatCode(() -> m.requireFits(OutboxColumn.RETRY_COUNT, "maxAttempts", "9", "9 attempts", LABEL))
                .doesNotThrowAnyException();
        assertThat(m.kind(OutboxColumn.RETRY_COUNT)).isEqualTo(ColumnKind.DECIMAL);
    }
}
