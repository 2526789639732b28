package io.legacygateway.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How operator commands talk to a running gateway: its REST API under {@code /api}, with HTTP Basic. The gateway may
 * run an embedded broker, so commands that act on the broker go through the gateway rather than around it.
 *
 * <p>Options (taken out of the command's arguments): {@code --gateway=http://127.0.0.1:8080} (or env
 * {@code GATEWAY_URL}), {@code --user=...} and {@code --password=...} (or env {@code GATEWAY_USER},
 * {@code GATEWAY_PASSWORD}).
 */
public final class GatewayApiClient {

    private final String base;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private GatewayApiClient(String base, String user, String password) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.authorization = user == null ? null : "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + (password == null ? "" : password)).getBytes(StandardCharsets.UTF_8));
    }

    /** Builds a client from {@code --gateway/--user/--password} in {@code args} (removed from it) or the environment. */
    public static GatewayApiClient from(List<String> args) {
        String url = option(args, "gateway", System.getenv().getOrDefault("GATEWAY_URL", "http://127.0.0.1:8080"));
        String user = option(args, "user", System.getenv("GATEWAY_USER"));
        String password = option(args, "password", System.getenv("GATEWAY_PASSWORD"));
        return new GatewayApiClient(url, user, password);
    }

    /** Removes {@code --name=value} from {@code args} and returns the value, or the fallback. */
    public static String option(List<String> args, String name, String fallback) {
        String prefix = "--" + name + "=";
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).startsWith(prefix)) {
                return args.remove(i).substring(prefix.length());
            }
        }
        return fallback;
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
                .map(e -> e.getKey() + "=" + java.net.URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return URI.create(base + path + (q.isEmpty() ? "" : "?" + q));
    }
}
