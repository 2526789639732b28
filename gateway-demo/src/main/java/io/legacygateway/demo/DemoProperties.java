package io.legacygateway.demo;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The demo jar's settings under {@code demo.*}: the demo's legacy application, which writes orders and their outbox
 * rows through plain JDBC, and the demo's second service, a wallet per customer updated from the order events through
 * an inbox consumer. Unknown keys fail startup and name the key, as under {@code gateway.*}; the product jar has none
 * of these keys.
 *
 * @param enabled             start the traffic generator; default false (the {@code demo} profile turns it on). A
 *                            command of the demo jar never starts it
 * @param dataSource          the datasource holding the demo's legacy schema; default {@code demo}
 * @param orderInterval       time between two orders; default 2s
 * @param walletDataSource    the datasource of the wallet service (its table and its inbox); default {@code wallet}
 * @param duplicateDeliveries now and then deliver an event the wallet already applied once more, bypassing the
 *                            broker's duplicate detection, to show the inbox skipping it; default false (the
 *                            {@code demo} profile turns it on)
 * @param duplicateInterval   time between two such duplicates; default 15s
 * @param poisonMessages      now and then send an order event for a customer who has no wallet yet, which the
 *                            wallet's inbox dead-letters (BUSINESS_RULE); the wallet is opened half an interval
 *                            later, so that the dead letter can be redelivered and applied; default false (the
 *                            {@code demo} profile turns it on)
 * @param poisonInterval      time between two such poison messages; default 2m
 */
@Validated
@ConfigurationProperties(prefix = "demo", ignoreUnknownFields = false)
public record DemoProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("demo") @NotBlank String dataSource,
        @DefaultValue("2s") @NotNull Duration orderInterval,
        @DefaultValue("wallet") @NotBlank String walletDataSource,
        @DefaultValue("false") boolean duplicateDeliveries,
        @DefaultValue("15s") @NotNull Duration duplicateInterval,
        @DefaultValue("false") boolean poisonMessages,
        @DefaultValue("2m") @NotNull Duration poisonInterval) {
}
