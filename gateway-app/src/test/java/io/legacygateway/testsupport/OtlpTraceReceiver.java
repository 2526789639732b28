package io.legacygateway.testsupport;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver in the test's JVM: a JDK HTTP server on a free local port that takes
 * {@code POST /v1/traces} with a protobuf {@code ExportTraceServiceRequest}, as a collector does, and keeps its spans.
 */
public final class OtlpTraceReceiver implements AutoCloseable {

    /** One received span, ids in lower-case hex as in a W3C traceparent; {@code parentSpanId} empty for a root. */
    public record ReceivedSpan(String name, String traceId, String spanId, String parentSpanId, List<String> links,
                               boolean error, Span raw) {

        /** The value of string attribute {@code key}, {@code null} when absent. */
        public String attribute(String key) {
            return raw.getAttributesList().stream().filter(a -> a.getKey().equals(key)).findFirst()
                    .map(KeyValue::getValue).map(v -> v.hasStringValue() ? v.getStringValue() : v.toString())
                    .orElse(null);
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

    public OtlpTraceReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                boolean gzip = "gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"));
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(
                        gzip ? new GZIPInputStream(body) : body);
                for (ResourceSpans r : request.getResourceSpansList()) {
                    for (ScopeSpans s : r.getScopeSpansList()) {
                        s.getSpansList().forEach(span -> spans.add(received(span)));
                    }
                }
                byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
                if (answer.length > 0) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(answer);
                    }
                }
            } catch (IOException | RuntimeException e) {
                exchange.sendResponseHeaders(400, -1);
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    private static ReceivedSpan received(Span s) {
        HexFormat hex = HexFormat.of();
        return new ReceivedSpan(s.getName(), hex.formatHex(s.getTraceId().toByteArray()),
                hex.formatHex(s.getSpanId().toByteArray()), hex.formatHex(s.getParentSpanId().toByteArray()),
                s.getLinksList().stream().map(l -> hex.formatHex(l.getTraceId().toByteArray()) + "-"
                        + hex.formatHex(l.getSpanId().toByteArray())).toList(),
                s.getStatus().getCode() == io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR, s);
    }

    /** The endpoint for {@code management.otlp.tracing.endpoint}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/traces";
    }

    /** Every span received so far, in arrival order. */
    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
