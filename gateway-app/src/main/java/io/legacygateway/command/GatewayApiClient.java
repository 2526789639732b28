package io.legacygateway.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How operator commands talk to a running gateway: its REST API under {@code /api}, with HTTP Basic. The gateway may
 * run an embedded broker, so commands that act on the broker go through the gateway rather than around it.
 *
 * <p>Commands build it from their {@link GatewayApiOptions}: {@code --gateway=http://127.0.0.1:8080} (or env
 * {@code GATEWAY_URL}), {@code --user=...} and {@code --password=...} (or env {@code GATEWAY_USER},
 * {@code GATEWAY_PASSWORD}).
 */
public final class GatewayApiClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * @param base     the gateway's base URL, without {@code /api}
     * @param user     the HTTP Basic user, or {@code null} to send no credentials
     * @param password its password ({@code null}: empty)
     */
    public GatewayApiClient(String base, String user, String password) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.authorization = user == null ? null : "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Query parameters or body fields from names and values given in turn ({@code "eventType", type, ...}): the
     * names whose value is not {@code null}, in that order.
     */
    public static Map<String, String> parameters(String... namesAndValues) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                parameters.put(namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        return parameters;
    }

    public Response get(String path, Map<String, String> query) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path, query)).GET());
    }

    public Response post(String path, String json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path, Map.of())).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json == null ? "{}" : json)));
    }

    /** Status and body of a response. */
    public record Response(int status, String body) {

        public boolean ok() {
            return status / 100 == 2;
        }

        /** {@code error: HTTP <status>}, and the body when there is one: what a command prints for a refusal. */
        public String error() {
            return "error: HTTP " + status + (body == null || body.isBlank() ? "" : ": " + body);
        }

        /** The body, a JSON document, indented for a reader. */
        public String prettyJson() throws IOException {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(body));
        }
    }

    private Response send(HttpRequest.Builder request) throws IOException, InterruptedException {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> r;
        try {
            r = http.send(request.timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("cannot reach the gateway at " + base + " (--gateway or GATEWAY_URL): "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        return new Response(r.statusCode(), r.body());
    }

    private URI uri(String path, Map<String, String> query) {
        String q = query.entrySet().stream().filter(e -> e.getValue() != null)
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return URI.create(base + path + (q.isEmpty() ? "" : "?" + q));
    }
}
