package io.legacygateway.deadletter;

import io.legacygateway.adapters.sql.Dialect;
import io.legacygateway.adapters.sql.TableInspector;
import io.legacygateway.adapters.sql.TableName;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.inbox.InboxConsumer;
import io.legacygateway.inbox.InboxConsumerFactory;
import io.legacygateway.inbox.InboxSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The inboxes of this gateway's {@code inbox-consumer} routes, seen from the dead-letter queues: whether a dead
 * letter's event is in its consumer's inbox (applied), and, for policy
 * {@link InboxPolicy#RELEASE_INBOX_AND_REDELIVER}, removing that row.
 *
 * <p>A dead letter's consumer is {@code gw_dlq_consumer}; a dead letter the broker moved has none, and is attributed
 * to the inbox consumer of its original queue when exactly one consumer of this gateway reads that queue. Consumers
 * of other gateway instances are not known here ({@link InboxState#NO_INBOX_CONSUMER}).
 */
final class InboxLookup {

    /** One consumer's inbox. */
    record Inbox(String consumer, String dataSource, TableName table, boolean gated) {
    }

    private final InboxConsumerFactory consumers;
    private final GatewayDataSources dataSources;
    private final Map<String, TableName> tables = new ConcurrentHashMap<>();

    InboxLookup(InboxConsumerFactory consumers, GatewayDataSources dataSources) {
        this.consumers = consumers;
        this.dataSources = dataSources;
    }

    /** The inbox that decides whether the dead letter was applied, if this gateway has it. */
    Optional<Inbox> inboxFor(DeadLetter d) {
        List<InboxSettings> all = consumers.consumers().stream().map(InboxConsumer::settings).toList();
        if (d.consumer() != null) {
            return all.stream().filter(s -> s.consumer().equals(d.consumer())).findFirst().map(this::inbox);
        }
        List<InboxSettings> reading = all.stream().filter(s -> s.queue().address().equals(d.originalAddress())
                && (d.originalQueue() == null || s.queue().queue().equals(d.originalQueue()))).toList();
        return reading.size() == 1 ? Optional.of(inbox(reading.get(0))) : Optional.empty();
    }

    /** The dead letters with their inbox status; one query per consumer and 500 ids. */
    List<DeadLetter> withStatus(List<DeadLetter> letters) {
        Map<Inbox, Set<String>> asked = new LinkedHashMap<>();
        Map<DeadLetter, InboxStatus> known = new LinkedHashMap<>();
        Map<DeadLetter, Inbox> inboxes = new LinkedHashMap<>();
        for (DeadLetter d : letters) {
            Optional<Inbox> inbox;
            try {
                inbox = inboxFor(d);
            } catch (RuntimeException e) {
                known.put(d, new InboxStatus(InboxState.UNAVAILABLE, d.consumer(), null, e.getMessage()));
                continue;
            }
            if (inbox.isEmpty()) {
                known.put(d, new InboxStatus(InboxState.NO_INBOX_CONSUMER, d.consumer(), null, null));
            } else if (d.eventId() == null) {
                known.put(d, new InboxStatus(InboxState.NO_EVENT_ID, inbox.get().consumer(),
                        inbox.get().dataSource(), null));
            } else {
                inboxes.put(d, inbox.get());
                asked.computeIfAbsent(inbox.get(), k -> new HashSet<>()).add(d.eventId());
            }
        }
        Map<Inbox, Set<String>> applied = new LinkedHashMap<>();
        Map<Inbox, String> failures = new LinkedHashMap<>();
        asked.forEach((inbox, ids) -> {
            try {
                applied.put(inbox, applied(inbox, ids));
            } catch (DataAccessException e) {
                failures.put(inbox, e.getMostSpecificCause().getMessage());
            } catch (RuntimeException e) {
                failures.put(inbox, e.getMessage());
            }
        });
        List<DeadLetter> out = new ArrayList<>(letters.size());
        for (DeadLetter d : letters) {
            InboxStatus status = known.get(d);
            if (status == null) {
                Inbox inbox = inboxes.get(d);
                status = failures.containsKey(inbox)
                        ? new InboxStatus(InboxState.UNAVAILABLE, inbox.consumer(), inbox.dataSource(),
                                failures.get(inbox))
                        : new InboxStatus(applied.get(inbox).contains(d.eventId()) ? InboxState.APPLIED
                                : InboxState.NOT_APPLIED, inbox.consumer(), inbox.dataSource(), null);
            }
            out.add(d.withInbox(status));
        }
        return out;
    }

    /**
     * Deletes the inbox row of (event id, consumer) in the consumer's database; {@code audit} runs in the same
     * transaction before the commit (it joins it when the audit table lives in the same datasource).
     *
     * @return whether a row was deleted
     */
    boolean release(Inbox inbox, String eventId, Runnable audit) {
        Dialect dialect = dataSources.dialect(inbox.dataSource());
        NamedParameterJdbcTemplate jdbc = new NamedParameterJdbcTemplate(
                dataSources.get(inbox.dataSource(), "dataSource"));
        String sql = dialect.sql("inbox.release", Map.of("table", dialect.quote(inbox.table())));
        return Boolean.TRUE.equals(new TransactionTemplate(dataSources.transactionManager(inbox.dataSource()))
                .execute(status -> {
                    int deleted = jdbc.update(sql, new MapSqlParameterSource().addValue("messageId", eventId)
                            .addValue("consumer", inbox.consumer()));
                    if (deleted > 0) {
                        audit.run();
                    }
                    return deleted > 0;
                }));
    }

    private Set<String> applied(Inbox inbox, Set<String> ids) {
        return consumers.consumers().stream().filter(c -> c.name().equals(inbox.consumer())).findFirst()
                .orElseThrow(() -> new IllegalStateException("inbox consumer '" + inbox.consumer() + "' is gone"))
                .inboxStore().applied(inbox.consumer(), ids);
    }

    /** The consumer's inbox, with the table name as the database spells it (as the consumer itself resolved it). */
    private Inbox inbox(InboxSettings s) {
        TableName table = tables.computeIfAbsent(s.dataSource() + "/" + s.inboxTable(), k -> TableInspector.inspect(
                dataSources.get(s.dataSource(), "dataSource"), dataSources.dialect(s.dataSource()),
                Objects.requireNonNull(s.inboxTable()), InboxSettings.label(s.consumer(), "inboxTable")).name());
        return new Inbox(s.consumer(), s.dataSource(), table, s.sequence() != null);
    }
}
