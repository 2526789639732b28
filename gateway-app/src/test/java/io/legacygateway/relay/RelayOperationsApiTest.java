package io.legacygateway.relay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.reconciliation.ReconcileCommand;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.OperatorHttp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

/**
 * The operator surfaces of FAILED rows over real HTTP, through the {@code relay} command and over JMX: listing with a
 * filter, retry by filter (dry run) and by id, roles (a viewer reads, only an operator retries), an unknown relay, and
 * the audit rows naming the logged-in user. PostgreSQL.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@OnPostgres
class RelayOperationsApiTest extends RelayTestSupport {

    static final String OPERATOR = "test-operator:test-operator-secret";
    static final String VIEWER = "test-viewer:test-viewer-secret";
    static final ObjectMapper JSON = new ObjectMapper();

    @LocalServerPort
    int port;

    final OperatorHttp http = new OperatorHttp(() -> "http://127.0.0.1:" + port, Duration.ofSeconds(60));

    @Test
    void failedRowsAreListedAndRetriedThroughTheApiTheCommandAndJmx() throws Exception {
        rows.jdbc().update("DELETE FROM gateway_operation_audit");
        String queue = unique("it.api");
        OutboxRelay relay = relay(unique("api"), "queue:" + queue, Map.of("maxAttempts", "1"));
        String created = rows.insert("cust-1", "OrderCreated", "{broken");
        String paid = rows.insert("cust-2", "OrderPaid", "{broken");
        assertThat(drain(relay)).isZero();
        String paidKey = rows.jdbc().queryForObject("SELECT seq FROM outbox WHERE id = ?", String.class, paid);
        String createdKey = rows.jdbc().queryForObject("SELECT seq FROM outbox WHERE id = ?", String.class, created);

        JsonNode relays = json(http.get("/api/relays", VIEWER));
        JsonNode listed = null;
        for (JsonNode r : relays) {
            if (r.get("relay").asText().equals(relay.name())) {
                listed = r;
            }
        }
        assertThat(listed).as("GET /api/relays lists the relay").isNotNull();
        assertThat(listed.get("maxAttempts").asInt()).isEqualTo(1);
        assertThat(listed.get("failedRowPolicy").asText()).isEqualTo("CONTINUE");

        JsonNode failed = json(http.get("/api/relays/" + relay.name() + "/failed?eventType=OrderPaid", VIEWER));
        assertThat(failed).hasSize(1);
        assertThat(failed.get(0).get("key").asText()).isEqualTo(paidKey);
        assertThat(failed.get(0).get("eventId").asText()).isEqualTo(paid);
        assertThat(failed.get(0).get("reason").asText()).startsWith("payload: not valid JSON");

        String retryPaid = "{\"eventType\":\"OrderPaid\",\"dryRun\":true}";
        assertThat(http.post("/api/relays/" + relay.name() + "/failed/retry", retryPaid, VIEWER).statusCode())
                .as("a viewer may not retry").isEqualTo(403);
        JsonNode dry = json(http.post("/api/relays/" + relay.name() + "/failed/retry", retryPaid, OPERATOR));
        assertThat(dry.get("dryRun").asBoolean()).isTrue();
        assertThat(dry.get("matched").asInt()).isEqualTo(1);
        assertThat(dry.get("retried").asInt()).isZero();
        HttpResponse<String> bad = http.post("/api/relays/" + relay.name() + "/failed/retry", "{}", OPERATOR);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("give ids, a filter");
        assertThat(http.get("/api/relays/no-such-relay/failed", VIEWER).statusCode()).isEqualTo(404);

        // the command, against this gateway
        String gateway = "--gateway=http://127.0.0.1:" + port;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = GatewayCli.execute(new RelayCommand(), List.of("failed", relay.name(), "--reason=not valid json", gateway,
                "--user=test-viewer", "--password=test-viewer-secret"), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(paid).contains(created);
        rows.jdbc().update("UPDATE outbox SET payload = '{}' WHERE id = ?", paid);
        out.reset();
        status = GatewayCli.execute(new RelayCommand(), List.of("retry", relay.name(), "--ids=" + paidKey, gateway,
                "--user=test-operator", "--password=test-operator-secret"), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(status).as(out.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(JSON.readTree(out.toString(StandardCharsets.UTF_8)).get("retried").asInt()).isEqualTo(1);
        assertThat(rows.status(paid)).isEqualTo("PENDING");

        // JMX: io.legacygateway:type=Relay,name=<relay>
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = RelayOperatorSurface.name(relay.name());
        assertThat(name.toString()).isEqualTo("io.legacygateway:type=Relay,name=" + relay.name());
        assertThat(mbeans.getAttribute(name, "MaxAttempts")).isEqualTo(1);
        // maps and lists of plain values: Jolokia renders them as the HTTP API's JSON
        List<?> listedOverJmx = (List<?>) mbeans.invoke(name, "listFailed",
                new Object[] {"OrderCreated", "", "", "", "", 10},
                new String[] {"java.lang.String", "java.lang.String", "java.lang.String", "java.lang.String",
                        "java.lang.String", "int"});
        assertThat(((Map<?, ?>) listedOverJmx.get(0)).get("key")).isEqualTo(createdKey);
        Map<?, ?> retriedOverJmx = (Map<?, ?>) mbeans.invoke(name, "retryFailed", new Object[] {createdKey, true},
                new String[] {"java.lang.String", "boolean"});
        assertThat(retriedOverJmx.get("matched")).isEqualTo(1);

        assertThat(drain(relay)).isEqualTo(1);
        List<Map<String, Object>> audit = rows.jdbc().queryForList(
                "SELECT actor, dry_run, affected FROM gateway_operation_audit ORDER BY id");
        assertThat(audit).extracting(a -> a.get("actor"))
                .containsExactly("test-operator", "test-operator", OperatorActor.local());
        assertThat(audit).extracting(a -> a.get("dry_run")).containsExactly(true, false, true);
    }

    @Test
    void reconciliationReportThroughTheApiTheCommandAndJmx() throws Exception {
        String name = unique("api-rec");
        OutboxRelay relay = relay(name, "queue:" + unique("it.api"), Map.of());
        String id = rows.insert("cust-9", "OrderPaid", "{}");
        faults.crashOnceAfterPublish(name);
        assertThat(drain(relay)).isZero();
        assertThat(drain(relay)).isEqualTo(1);

        JsonNode report = json(http.get("/api/reconciliation?relay=" + name, VIEWER));
        assertThat(report.get("counts").get("DUPLICATE_DELIVERY_CANDIDATE").asInt()).isEqualTo(1);
        assertThat(report.get("findings").asBoolean()).isTrue();
        JsonNode intent = report.get("intents").get(0);
        assertThat(intent.get("intentId").asText()).isEqualTo(id);
        assertThat(intent.get("reconciliationDecision").asText()).isEqualTo("DUPLICATE_DELIVERY_CANDIDATE");
        assertThat(intent.get("attempts")).hasSize(2);
        HttpResponse<String> text = http.get("/api/reconciliation?relay=" + name + "&format=text", VIEWER);
        assertThat(text.body()).contains("Intent ID:               " + id,
                "Reconciliation Decision: DUPLICATE_DELIVERY_CANDIDATE");
        assertThat(http.get("/api/reconciliation?relay=no-such-relay", VIEWER).statusCode()).isEqualTo(404);
        assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/reconciliation"))
                .GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);

        // the command exits 1 on findings, so that a scheduler can alert
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = GatewayCli.execute(new ReconcileCommand(), List.of(name,
                "--gateway=http://127.0.0.1:" + port, "--user=test-viewer", "--password=test-viewer-secret"),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(status).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Residual Consumer Risk:  Event " + id);

        // JMX (Hawtio's operations tab): io.legacygateway:type=Reconciliation
        ObjectName jmx = new ObjectName(io.legacygateway.reconciliation.ReconciliationOperatorSurface.NAME);
        MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
        assertThat(mbeans.getMBeanInfo(jmx).getOperations()).extracting(o -> o.getName())
                .contains("report", "reportFor");
        assertThat((String) mbeans.invoke(jmx, "report", new Object[0], new String[0]))
                .startsWith("Reconciliation report at");
    }

    /** Outside a request (JMX from this JVM) the actor is the process's user. */
    static final class OperatorActor {
        static String local() {
            return "local:" + System.getProperty("user.name", "unknown");
        }
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
