package io.legacygateway.deadletter;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.jms.JMSException;
import java.util.List;
import java.util.Map;
import org.springframework.jmx.export.annotation.ManagedOperation;
import org.springframework.jmx.export.annotation.ManagedOperationParameter;
import org.springframework.jmx.export.annotation.ManagedOperationParameters;
import org.springframework.jmx.export.annotation.ManagedResource;

/**
 * Dead letters in JMX (Hawtio: JMX tree, {@code io.legacygateway} / {@code DeadLetters}): the same operations as
 * {@code /api/dead-letters}, audited the same way (the actor is the Hawtio/Jolokia login). Results are maps and lists
 * of plain values, so Hawtio and Jolokia show them as JSON. Filters are written {@code key=value&key=value} with the
 * keys of {@link DeadLetterFilter#KEYS}, for example {@code type=OrderCreated&reasonClass=BUSINESS_RULE}.
 */
@ManagedResource(objectName = DeadLettersMBean.OBJECT_NAME,
        description = "Dead letters: list them grouped by reason, redeliver them to their original queue")
public class DeadLettersMBean {

    public static final String OBJECT_NAME = "io.legacygateway:type=DeadLetters,name=redelivery";

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };
    private static final TypeReference<List<Map<String, Object>>> LIST = new TypeReference<>() {
    };

    private final DeadLetterRedelivery redelivery;
    private final ObjectMapper json;

    DeadLettersMBean(DeadLetterRedelivery redelivery, ObjectMapper json) {
        this.redelivery = redelivery;
        this.json = json;
    }

    @ManagedOperation(description = "The dead-letter queues with their depths")
    public List<Map<String, Object>> queues() {
        return json.convertValue(call(redelivery::queues), LIST);
    }

    @ManagedOperation(description = "Dead letters grouped by queue, reason class, reason and event type: count, "
            + "applied (already in the consumer's inbox), oldest, newest")
    public List<Map<String, Object>> groups() {
        return json.convertValue(call(() -> redelivery.overview().groups()), LIST);
    }

    @ManagedOperation(description = "One page of the dead letters a filter selects, with their inbox status")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "queue", description = "DLQ.<address> or the original address; empty: all"),
            @ManagedOperationParameter(name = "filter", description = "key=value&...: type, subject, reasonClass, "
                    + "reason, consumer, from, to, ids"),
            @ManagedOperationParameter(name = "offset", description = "first message, from 0"),
            @ManagedOperationParameter(name = "limit", description = "messages per page, 1-1000")})
    public Map<String, Object> messages(String queue, String filter, int offset, int limit) {
        return json.convertValue(call(() -> redelivery.messages(filter(queue, filter), offset, limit, false)), MAP);
    }

    @ManagedOperation(description = "Redeliver dead letters to their original queue (inbox policy SKIP_APPLIED, "
            + "default rate, replay horizon enforced); dryRun=true only reports what would move")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "queue", description = "DLQ.<address> or the original address; empty: all"),
            @ManagedOperationParameter(name = "filter", description = "key=value&...: type, subject, reasonClass, "
                    + "reason, consumer, from, to, ids; empty: every dead letter of the queue"),
            @ManagedOperationParameter(name = "dryRun", description = "true: report only, move nothing")})
    public Map<String, Object> redeliver(String queue, String filter, boolean dryRun) {
        return json.convertValue(call(() -> redelivery.redeliver(new RedeliveryRequest(filter(queue, filter), dryRun,
                null, InboxPolicy.SKIP_APPLIED, false, false))), MAP);
    }

    @ManagedOperation(description = "Redeliver dead letters with every option of POST /api/dead-letters/redeliver")
    @ManagedOperationParameters({
            @ManagedOperationParameter(name = "queue", description = "DLQ.<address> or the original address; empty: all"),
            @ManagedOperationParameter(name = "filter", description = "key=value&...; empty: no condition"),
            @ManagedOperationParameter(name = "ids", description = "comma-separated message or event ids; empty: any"),
            @ManagedOperationParameter(name = "dryRun", description = "true: report only, move nothing"),
            @ManagedOperationParameter(name = "ratePerSecond", description = "messages per second; 0: the default"),
            @ManagedOperationParameter(name = "inboxPolicy", description = "SKIP_APPLIED, REDELIVER_ALL or "
                    + "RELEASE_INBOX_AND_REDELIVER; empty: SKIP_APPLIED"),
            @ManagedOperationParameter(name = "force", description = "also dead letters older than the replay horizon"),
            @ManagedOperationParameter(name = "discardApplied", description = "SKIP_APPLIED: remove applied ones "
                    + "from the dead-letter queue")})
    public Map<String, Object> redeliverWithOptions(String queue, String filter, String ids, boolean dryRun,
                                                    int ratePerSecond, String inboxPolicy, boolean force,
                                                    boolean discardApplied) {
        DeadLetterFilter f = filter(queue, filter);
        if (ids != null && !ids.isBlank()) {
            f = f.withIds(DeadLetterFilter.parse(Map.of("ids", ids)).ids());
        }
        RedeliveryRequest request = new RedeliveryRequest(f, dryRun, ratePerSecond <= 0 ? null : ratePerSecond,
                RedeliveryRequest.policy(inboxPolicy), force, discardApplied);
        return json.convertValue(call(() -> redelivery.redeliver(request)), MAP);
    }

    private static DeadLetterFilter filter(String queue, String filter) {
        DeadLetterFilter f = DeadLetterFilter.parse(filter);
        return queue == null || queue.isBlank() ? f : f.withQueue(queue.strip());
    }

    private interface BrokerCall<T> {
        T run() throws JMSException;
    }

    private static <T> T call(BrokerCall<T> call) {
        try {
            return call.run();
        } catch (JMSException e) {
            throw new IllegalStateException("the broker cannot be reached: " + e.getMessage(), e);
        }
    }
}
