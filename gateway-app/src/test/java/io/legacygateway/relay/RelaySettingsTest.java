package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.transactions.TransactionMode;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every bad parameter fails with a message that names it. */
class RelaySettingsTest {

    private static Map<String, Object> valid() {
        Map<String, Object> p = new HashMap<>();
        p.put("relay", "orders");
        p.put("destination", "queue:orders.events");
        return p;
    }

    @Test
    void defaultsApplyWhenOnlyTheRequiredParametersAreGiven() {
        RelaySettings s = RelaySettings.parse(valid(), "urn:x", "legacy");
        assertThat(s.dataSource()).isEqualTo("legacy");
        assertThat(s.table().table()).isEqualTo("outbox");
        assertThat(s.batchSize()).isEqualTo(500);
        assertThat(s.pollInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(s.maxBackoff()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.source()).isEqualTo("urn:x");
        assertThat(s.pendingStatus()).isEqualTo("PENDING");
        assertThat(s.markMode()).isEqualTo(io.legacygateway.adapters.outbox.mapping.MarkMode.STATUS);
        assertThat(s.stateDataSource()).isEqualTo("legacy");
        assertThat(s.naiveTimestampZone()).isEqualTo(java.time.ZoneId.of("UTC"));
        assertThat(s.settleTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.retry()).isEqualTo(new RetryPolicy(5, Duration.ofSeconds(10), Duration.ofHours(1)));
        assertThat(s.failedRowPolicy()).isEqualTo(FailedRowPolicy.CONTINUE);
        assertThat(s.retention()).as("off").isNull();
        assertThat(s.wakeUp()).isEqualTo(WakeUp.NONE);
        assertThat(s.transactionMode()).isEqualTo(TransactionMode.LOCAL);
        assertThat(s.claimLease()).as("above publishTimeout").isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theRetryWaitDoublesUpToItsMaximumWithJitterAroundIt() {
        RetryPolicy policy = new RetryPolicy(5, Duration.ofSeconds(10), Duration.ofSeconds(60));
        java.time.Instant now = java.time.Instant.parse("2026-11-29T10:00:00Z");
        assertThat(policy.nextAttempt(1, now, 0.5)).isEqualTo(now.plusSeconds(10));
        assertThat(policy.nextAttempt(2, now, 0.5)).isEqualTo(now.plusSeconds(20));
        assertThat(policy.nextAttempt(3, now, 0.5)).isEqualTo(now.plusSeconds(40));
        assertThat(policy.nextAttempt(4, now, 0.5)).as("at most maxRetryBackoff").isEqualTo(now.plusSeconds(60));
        assertThat(policy.nextAttempt(5, now, 0.5)).as("parked after maxAttempts").isNull();
        assertThat(policy.nextAttempt(1, now, 0.0)).as("-20 %").isEqualTo(now.plusSeconds(8));
        assertThat(policy.nextAttempt(2, now, 0.999)).as("+20 %").isEqualTo(now.plusMillis(23_992));
        assertThat(policy.nextAttempt(4, now, 0.999)).as("jitter never exceeds the maximum").isEqualTo(now.plusSeconds(60));
    }

    @Test
    void retentionIsADurationOrOff() {
        Map<String, Object> p = valid();
        p.put("retention", "7d");
        assertThat(RelaySettings.parse(p, "urn:x", "legacy").retention()).isEqualTo(Duration.ofDays(7));
        p.put("retention", "OFF");
        assertThat(RelaySettings.parse(p, "urn:x", "legacy").retention()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "markMode=DELETE,retention=7d|parameter 'retention': markMode DELETE keeps no published rows",
            "markMode=ZERO_WRITE,retention=1d|parameter 'retention': markMode ZERO_WRITE keeps no published rows",
            "markMode=ZERO_WRITE,failedRowPolicy=BLOCK_AGGREGATE|parameter 'failedRowPolicy': BLOCK_AGGREGATE needs rows",
            "maxAttempts=0|parameter 'maxAttempts': 0 is outside 1-100",
            "retryBackoff=1m,maxRetryBackoff=30s|parameter 'maxRetryBackoff': 30000 ms is shorter than retryBackoff",
            "claimLease=30s|parameter 'claimLease': 30000 ms does not exceed publishTimeout (30000 ms)",
            "publishTimeout=5s,claimLease=4s|parameter 'claimLease': 4000 ms does not exceed publishTimeout (5000 ms)",
            "failedRowPolicy=STOP|parameter 'failedRowPolicy': 'STOP' is not one of [CONTINUE, BLOCK_AGGREGATE]",
            "retention=soon|parameter 'retention': 'soon' is not a positive duration",
            "markMode=ZERO_WRITE,transactionMode=XA|parameter 'transactionMode': XA needs a mark mode that writes"
    })
    void retryAndRetentionParametersThatContradictTheModeFailNamingThem(String parameters, String message) {
        Map<String, Object> p = valid();
        for (String kv : parameters.split(",")) {
            p.put(kv.split("=")[0], kv.split("=")[1]);
        }
        assertThatThrownBy(() -> RelaySettings.parse(p, "urn:x", "legacy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox-relay 'orders' " + message);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "batchSize|0|parameter 'batchSize': 0 is outside 1-1000",
            "batchSize|ten|parameter 'batchSize': 'ten' is not an integer",
            "pollInterval|soon|parameter 'pollInterval': 'soon' is not a positive duration",
            "maxBackoff|-1|parameter 'maxBackoff'",
            "payloadFormat|XML|parameter 'payloadFormat': 'XML' is not one of [JSON, TEXT, COLUMNS]",
            "destination|queue:orders.{customer}|parameter 'destination': 'queue:orders.{customer}' uses an unknown placeholder",
            "destination|queue:orders events|parameter 'destination': 'queue:orders events' is not a safe address name",
            "table|orders;drop|parameter 'table': 'orders;drop' is not a safe SQL identifier",
            "publishedStatus|''|parameter 'publishedStatus': must be 1-64 characters",
            "tabel|outbox|parameter 'tabel': unknown parameter",
            "markMode|ARCHIVE|parameter 'markMode': 'ARCHIVE' is not one of [STATUS, TIMESTAMP, DELETE, ZERO_WRITE]",
            "stateDataSource|other|parameter 'stateDataSource': only markMode ZERO_WRITE may keep its state in another",
            "startFrom|YESTERDAY|parameter 'startFrom': 'YESTERDAY' is not one of [BEGINNING, NOW]",
            "settleTime|50ms|parameter 'settleTime': 50 ms is below 200 ms",
            "naiveTimestampZone|Mars/Olympus|parameter 'naiveTimestampZone': 'Mars/Olympus' is not a time zone",
            "wakeUp|LISTEN|parameter 'wakeUp': 'LISTEN' is not one of [NONE, NOTIFY]",
            "transactionMode|JTA|parameter 'transactionMode': 'JTA' is not one of [LOCAL, XA]"
    })
    void aBadParameterFailsNamingIt(String key, String value, String message) {
        Map<String, Object> p = valid();
        p.put(key, value);
        assertThatThrownBy(() -> RelaySettings.parse(p, "urn:x", "legacy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox-relay 'orders' " + message);
    }

    @Test
    void theDatasourceMustBeNamedWhenSeveralAreConfigured() {
        assertThatThrownBy(() -> RelaySettings.parse(valid(), "urn:x", null))
                .hasMessageContaining("parameter 'dataSource': required when gateway.datasources has none or several");
    }

    @Test
    void relayAndDestinationAreRequired() {
        Map<String, Object> p = valid();
        p.remove("destination");
        assertThatThrownBy(() -> RelaySettings.parse(p, "urn:x", "legacy"))
                .hasMessageContaining("parameter 'destination' is required");
        p.put("destination", "queue:x");
        p.put("relay", "Orders!");
        assertThatThrownBy(() -> RelaySettings.parse(p, "urn:x", "legacy"))
                .hasMessageContaining("parameter 'relay': 'Orders!' must match");
    }
}
