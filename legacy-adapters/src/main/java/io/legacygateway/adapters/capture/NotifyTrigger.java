package io.legacygateway.adapters.capture;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableName;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The wake-up trigger of an outbox table (PostgreSQL, {@code triggers --notify}): a statement-level AFTER INSERT
 * trigger that runs {@code pg_notify(channel, '')}, so that a relay with {@code wakeUp: NOTIFY} claims committed rows at
 * once instead of at its next poll. The statements live in {@code capture/<db>.sql} ({@code notify.*}).
 *
 * <p>Guaranteed: a committed insert into the table signals the channel once per transaction (PostgreSQL folds
 * identical notifications of a transaction and drops them on rollback). Not guaranteed: that a relay hears it (a
 * notification sent while no session listens is lost); the relay's polling stays the safety net.
 */
public final class NotifyTrigger {

    /** The function every notify trigger calls; created in the table's schema. */
    static final String FUNCTION = "gw_outbox_notify";
    /** What a channel may be: a PostgreSQL identifier in lower case (at most 63 bytes). */
    static final Pattern CHANNEL = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    private NotifyTrigger() {
    }

    /**
     * The channel of an outbox table: {@code gw_outbox_<table>} in lower case, from the table's name without its
     * schema (so the relay's {@code table} and the installed trigger agree however they are qualified; two outboxes of
     * one name in different schemas share a channel, which costs a needless poll, never a missed row).
     *
     * @param property the setting or option that named the table, in the error
     * @throws IllegalArgumentException when the name is too long for a channel (63 characters)
     */
    public static String channel(String property, TableName outbox) {
        String channel = "gw_outbox_" + outbox.table().toLowerCase(Locale.ROOT);
        if (!CHANNEL.matcher(channel).matches()) {
            throw new IllegalArgumentException(property + ": the wake-up channel '" + channel + "' of table '" + outbox
                    + "' is longer than PostgreSQL's 63 characters for a name");
        }
        return channel;
    }

    /** The trigger's name on a table. */
    static String triggerName(TableName outbox) {
        String name = "gw_notify_" + outbox.table().toLowerCase(Locale.ROOT);
        return name.length() > 63 ? name.substring(0, 63) : name;
    }

    /** Whether the dialect offers the wake-up trigger (and relays' {@code wakeUp: NOTIFY}). */
    public static boolean offered(Dialect dialect) {
        return dialect.hasCaptureSql("notify.trigger");
    }

    /**
     * The statements that install (drop an earlier trigger, create or replace the function, create the trigger) and
     * remove (the trigger only: the function may serve other outboxes) the wake-up of one outbox table.
     *
     * @param outbox the table as stored, qualified with its schema where known (the function goes to that schema)
     * @throws IllegalArgumentException when the dialect has no notifications
     */
    public static CaptureTriggers.Ddl generate(Dialect dialect, TableName outbox) {
        if (!offered(dialect)) {
            throw new IllegalArgumentException("--notify: " + dialect.id() + " has no LISTEN/NOTIFY; the wake-up is"
                    + " offered on PostgreSQL only (relays poll at pollInterval elsewhere)");
        }
        String channel = channel("--outbox-table", outbox);
        Map<String, String> f = Map.of(
                "outbox", dialect.quote(outbox),
                "trigger", dialect.quote(triggerName(outbox)),
                "function", outbox.schema() == null ? dialect.quote(FUNCTION)
                        : dialect.quote(new TableName(outbox.schema(), FUNCTION)),
                "channel", CaptureTriggers.literal("channel", channel));
        return new CaptureTriggers.Ddl(List.of(dialect.captureSql("notify.dropTrigger", f),
                dialect.captureSql("notify.function", f), dialect.captureSql("notify.trigger", f)),
                List.of(dialect.captureSql("notify.dropTrigger", f)), null, null, null);
    }
}
