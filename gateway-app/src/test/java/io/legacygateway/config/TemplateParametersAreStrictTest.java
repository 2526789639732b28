package io.legacygateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.legacygateway.relay.FailedRowPolicy;
import io.legacygateway.relay.RelaySettings;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Template parameters go through Spring's binder, but not its leniency: what the hand-written parser refused before
 * is still refused (Spring alone would bind {@code yes}, {@code 0x10}, {@code block-aggregate}, {@code batch-size}).
 */
class TemplateParametersAreStrictTest {

    private static Map<String, Object> relay(String key, String value) {
        Map<String, Object> p = new HashMap<>();
        p.put("relay", "orders");
        p.put("destination", "queue:orders.events");
        p.put(key, value);
        return p;
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "batchSize|0x10|parameter 'batchSize': '0x10' is not an integer",
            "batchSize|1_000|parameter 'batchSize': '1_000' is not an integer",
            "attemptLog|yes|parameter 'attemptLog': 'yes' is not true or false",
            "attemptLog|1|parameter 'attemptLog': '1' is not true or false",
            "failedRowPolicy|block-aggregate|parameter 'failedRowPolicy': 'block-aggregate' is not one of",
            "pollInterval|0|parameter 'pollInterval': '0' is not a positive duration",
            "pollInterval|-PT1S|parameter 'pollInterval': '-PT1S' is not a positive duration",
            "batch-size|10|parameter 'batch-size': unknown parameter",
            "batchsize|10|parameter 'batchsize': unknown parameter"
    })
    void whatSpringWouldAcceptIsRefusedNamingTheParameter(String key, String value, String message) {
        assertThatThrownBy(() -> RelaySettings.parse(relay(key, value), "urn:x", "legacy"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outbox-relay 'orders' " + message);
    }

    @Test
    void enumConstantsInAnyCaseAndValuesAroundSpacesStillBind() {
        assertThat(RelaySettings.parse(relay("failedRowPolicy", "block_aggregate"), "urn:x", "legacy")
                .failedRowPolicy()).isEqualTo(FailedRowPolicy.BLOCK_AGGREGATE);
        assertThat(RelaySettings.parse(relay("batchSize", " 250 "), "urn:x", "legacy").batchSize()).isEqualTo(250);
    }

    @Test
    void placeholdersInAValueAreNotResolved() {
        assertThat(RelaySettings.parse(relay("source", "urn:${user.name}"), "urn:x", "legacy").source())
                .isEqualTo("urn:${user.name}");
    }
}
