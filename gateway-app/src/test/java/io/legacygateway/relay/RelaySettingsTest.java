package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

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
        assertThat(s.batchSize()).isEqualTo(100);
        assertThat(s.pollInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.maxBackoff()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.source()).isEqualTo("urn:x");
        assertThat(s.pendingStatus()).isEqualTo("PENDING");
        assertThat(s.markMode()).isEqualTo(io.legacygateway.adapters.outbox.MarkMode.STATUS);
        assertThat(s.stateDataSource()).isEqualTo("legacy");
        assertThat(s.naiveTimestampZone()).isEqualTo(java.time.ZoneId.of("UTC"));
        assertThat(s.settleTime()).isEqualTo(Duration.ofSeconds(1));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "batchSize|0|parameter 'batchSize': 0 is outside 1-1000",
            "batchSize|ten|parameter 'batchSize': 'ten' is not an integer",
            "pollInterval|soon|parameter 'pollInterval': 'soon' is not a positive duration",
            "maxBackoff|-1|parameter 'maxBackoff'",
            "payloadFormat|XML|parameter 'payloadFormat': 'XML' is not one of [JSON, TEXT]",
            "destination|queue:orders.{customer}|parameter 'destination': 'queue:orders.{customer}' uses an unknown placeholder",
            "destination|queue:orders events|parameter 'destination': 'queue:orders events' is not a safe address name",
            "table|orders;drop|parameter 'table': 'orders;drop' is not a safe SQL identifier",
            "publishedStatus|''|parameter 'publishedStatus': must be 1-64 characters",
            "tabel|outbox|parameter 'tabel': unknown parameter",
            "markMode|ARCHIVE|parameter 'markMode': 'ARCHIVE' is not one of [STATUS, TIMESTAMP, DELETE, ZERO_WRITE]",
            "stateDataSource|other|parameter 'stateDataSource': only markMode ZERO_WRITE may keep its state in another",
            "startFrom|YESTERDAY|parameter 'startFrom': 'YESTERDAY' is not one of [BEGINNING, NOW]",
            "settleTime|50ms|parameter 'settleTime': 50 ms is below 200 ms",
            "naiveTimestampZone|Mars/Olympus|parameter 'naiveTimestampZone': 'Mars/Olympus' is not a time zone"
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
