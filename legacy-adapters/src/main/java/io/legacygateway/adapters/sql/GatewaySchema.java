package io.legacygateway.adapters.sql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.springframework.core.io.ClassPathResource;

/**
 * The DDL the gateway ships, one part per thing that needs tables: the default outbox, a relay's state, an inbox
 * consumer's tables, the operator audit. {@code initialize-schema} applies in a datasource only the parts of what is
 * configured on it; {@code java -jar gateway-app.jar ddl <dialect> [part...]} prints them for an owner to apply.
 */
public enum GatewaySchema {
    /** The gateway's default outbox table {@code outbox}, which a legacy application writes into. */
    OUTBOX("outbox", "outbox.sql", "the default outbox table 'outbox' (a relay with table: outbox)"),
    /** A relay's own tables in its state datasource: position, rejections, attempt log. */
    RELAY("relay", "relay-state.sql", "a relay's own tables in its stateDataSource (position, rejections, attempts)"),
    /** An inbox consumer's tables in its datasource: inbox, sequence gate, parked messages. */
    INBOX("inbox", "inbox.sql", "an inbox consumer's tables (inbox, inbox_sequence, inbox_parked)"),
    /** The audit trail of operator actions, in {@code gateway.operations.data-source}. */
    OPERATIONS("operations", "operations.sql", "the operator audit (gateway.operations.data-source)");

    private final String part;
    private final String script;
    private final String summary;

    GatewaySchema(String part, String script, String summary) {
        this.part = part;
        this.script = script;
        this.summary = summary;
    }

    /** The word that names the part, for example {@code relay}. */
    public String part() {
        return part;
    }

    /** The script's file name under {@code ddl/<dialect>/}. */
    public String script() {
        return script;
    }

    public String summary() {
        return summary;
    }

    public static Optional<GatewaySchema> ofPart(String word) {
        return Arrays.stream(values()).filter(s -> s.part.equals(word.toLowerCase(Locale.ROOT))).findFirst();
    }

    /** Whether the gateway ships this part for that database (the inbox and the audit are not there for every one). */
    public boolean existsFor(Dialect dialect) {
        return new ClassPathResource(dialect.ddlResource(script)).exists();
    }

    /** The script's text for that database. */
    public String ddl(Dialect dialect) {
        ClassPathResource resource = new ClassPathResource(dialect.ddlResource(script));
        if (!resource.exists()) {
            throw new IllegalArgumentException("no " + part + " DDL ships for " + dialect.id());
        }
        try {
            return resource.getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource.getPath(), e);
        }
    }
}
