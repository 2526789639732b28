package io.legacygateway.inbox;

import io.legacygateway.envelope.EnvelopeMessages;
import io.legacygateway.envelope.EventEnvelope;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * An effect given as a Camel endpoint ({@code direct:apply-payment}, {@code bean:wallet?method=credit}), called
 * synchronously on the inbox's thread inside its database transaction.
 *
 * <p>The exchange's body is the {@link EventEnvelope}; headers {@code ce_id}, {@code ce_type}, {@code ce_subject},
 * {@code ce_eventversion} carry its attributes; property {@link #JDBC} holds a {@link NamedParameterJdbcTemplate} and
 * {@link #DATA_SOURCE} the {@link DataSource} of the inbox, both bound to the open transaction. Database work done
 * through them (or through any Spring JDBC access to that same datasource) commits with the inbox row; work through
 * other connections does not.
 *
 * <p>A camel-sql step of the route ({@code to: sql:...?dataSource=#<consumer's datasource>}) is such an access: its
 * {@code JdbcTemplate} joins the transaction, and its {@code :#name} parameters find the envelope's values in the body
 * converted to a map ({@link CamelSqlSteps}, {@link EnvelopeValues#byName}) while the body stays the envelope. The
 * route must run on this thread: a step that hands the exchange to another thread (a {@code seda:} or {@code wireTap},
 * {@code threads}, a parallel split) leaves the transaction behind.
 */
final class EndpointEffect implements InboxEffect {

    /** Exchange property: a {@link NamedParameterJdbcTemplate} on the inbox's datasource, in its transaction. */
    public static final String JDBC = "inboxJdbc";
    /** Exchange property: the inbox's {@link DataSource}. */
    public static final String DATA_SOURCE = "inboxDataSource";
    /** Exchange property: the consumer name. */
    public static final String CONSUMER = "inboxConsumer";

    private final ProducerTemplate producer;
    private final String uri;
    private final String consumer;
    private final DataSource dataSource;
    private final NamedParameterJdbcTemplate jdbc;

    EndpointEffect(ProducerTemplate producer, String uri, String consumer, DataSource dataSource) {
        this.producer = producer;
        this.uri = uri;
        this.consumer = consumer;
        this.dataSource = dataSource;
        this.jdbc = new NamedParameterJdbcTemplate(dataSource);
    }

    @Override
    public void apply(EventEnvelope envelope) {
        Exchange result = producer.send(uri, exchange -> {
            exchange.getIn().setBody(envelope);
            exchange.getIn().setHeader(EnvelopeMessages.ID, envelope.id());
            exchange.getIn().setHeader(EnvelopeMessages.TYPE, envelope.type());
            exchange.getIn().setHeader(EnvelopeMessages.SUBJECT, envelope.subject());
            exchange.getIn().setHeader(EnvelopeMessages.EVENT_VERSION, envelope.eventVersion());
            exchange.setProperty(JDBC, jdbc);
            exchange.setProperty(DATA_SOURCE, dataSource);
            exchange.setProperty(CONSUMER, consumer);
        });
        Exception failure = result.getException();
        if (failure != null) {
            for (Throwable t = failure; t != null; t = t.getCause()) {
                if (t instanceof BusinessRuleViolationException b) {
                    throw b;
                }
            }
            throw failure instanceof RuntimeException r ? r
                    : new IllegalStateException("effect endpoint " + uri + " failed: " + failure, failure);
        }
    }
}
