package io.legacygateway.relay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.legacygateway.envelope.EnvelopeCodec;
import java.util.Map;
import org.apache.camel.Exchange;

/** What a relay's step (steps, alsoPublish) hands back, read as an event's data. */
final class StepOutput {

    private StepOutput() {
    }

    /** What a step left as the data: a JSON tree, or text (parsed when {@code json}); {@code null} when empty. */
    static JsonNode data(EnvelopeCodec codec, Object body, boolean json, Exchange exchange)
            throws JsonProcessingException {
        if (body == null) {
            return null;
        }
        if (body instanceof JsonNode node) {
            return node;
        }
        if (body instanceof Map<?, ?> || body instanceof Iterable<?> || body instanceof Number
                || body instanceof Boolean) {
            return codec.tree(body);
        }
        String text = exchange.getContext().getTypeConverter().convertTo(String.class, exchange, body);
        if (text == null || text.isEmpty()) {
            return null;
        }
        return json ? codec.parseJson(text) : TextNode.valueOf(text);
    }
}
