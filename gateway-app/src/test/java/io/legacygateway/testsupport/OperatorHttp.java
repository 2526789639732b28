package io.legacygateway.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Supplier;

/**
 * Requests to a running gateway's HTTP surfaces (REST, actuator, Jolokia) as an operator makes them: with Basic
 * credentials {@code user:password}, or none when {@code credentials} is {@code null}.
 */
public final class OperatorHttp {

    private final HttpClient http = HttpClient.newHttpClient();
    private final Supplier<String> base;
    private final Duration timeout;

    /**
     * Requests to {@code base} (for example {@code () -> "http://localhost:" + port}: read at each request, after Spring
     * injected the port), each given {@code timeout} to answer.
     */
    public OperatorHttp(Supplier<String> base, Duration timeout) {
        this.base = base;
        this.timeout = timeout;
    }

    public HttpResponse<String> get(String path, String credentials) throws IOException, InterruptedException {
        return http.send(request(path, credentials).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST of a JSON body. */
    public HttpResponse<String> post(String path, String body, String credentials)
            throws IOException, InterruptedException {
        return http.send(request(path, credentials).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends a request built with {@link #request}. */
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        return http.send(request, body);
    }

    /** A request of {@code path}, with the credentials, to complete (method, headers) and send. */
    public HttpRequest.Builder request(String path, String credentials) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base.get() + path)).timeout(timeout);
        if (credentials != null) {
            b.header("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return b;
    }
}
