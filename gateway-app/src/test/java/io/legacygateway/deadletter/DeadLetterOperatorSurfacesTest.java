package io.legacygateway.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.broker.BrokerConnections;
import io.legacygateway.cli.GatewayCli;
import io.legacygateway.envelope.EventEnvelope;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.OperatorHttp;
import jakarta.jms.ConnectionFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The operator surfaces of dead-letter redelivery over real HTTP, in a running gateway on a random port (embedded
 * broker, PostgreSQL inbox): REST with its roles and its 400/404 answers, the JMX operations as Hawtio lists and
 * Jolokia runs them (audited with the login), and the {@code dlq} command against this gateway. Users from
 * {@code application-test.yml}: {@code test-operator} (OPERATOR), {@code test-viewer} (VIEWER).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "gateway.dead-letters.depth-interval=0",
        // @SpringBootTest turns JMX off; the gateway (application.yml) has it on, and Hawtio shows what it exports
        "spring.jmx.enabled=true"})
@ActiveProfiles("test")
@OnPostgres(dataSource = "target")
class DeadLetterOperatorSurfacesTest extends DeadLetterTestSupport {

    static final String OPERATOR = "test-operator:test-operator-secret";
    static final String VIEWER = "test-viewer:test-viewer-secret";
    static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void targetDatabase(DynamicPropertyRegistry registry) {
        registry.add("gateway.datasources.target.maximum-pool-size", () -> "4");
    }

    @LocalServerPort
    int port;
    @Autowired
    ConnectionFactory connectionFactory;

    final OperatorHttp http = new OperatorHttp(() -> "http://127.0.0.1:" + port, Duration.ofSeconds(60));

    @Override
    protected ConnectionFactory brokerConnectionFactory() {
        return BrokerConnections.nativeFactory(connectionFactory);
    }

    /** Two orders of a customer without a wallet, dead-lettered by a real inbox consumer. */
    private EventEnvelope[] twoDeadLetters(String queue) {
        startConsumer(unique("wallet"), queue, Map.of());
        EventEnvelope a = order("OrderCreated", "zed", "5");
        EventEnvelope b = order("OrderCreated", "zed", "7");
        send(queue, a, b);
        awaitDeadLetters(queue, 2);
        return new EventEnvelope[] {a, b};
    }

    @Test
    void restListsPagesAndRedeliversWithTheRolesOfTheApi() throws Exception {
        String queue = unique("it.api");
        EventEnvelope[] sent = twoDeadLetters(queue);
        String dlq = deadLetterQueue(queue);

        HttpResponse<String> overview = http.get("/api/dead-letters", VIEWER);
        assertThat(overview.statusCode()).isEqualTo(200);
        JsonNode groups = JSON.readTree(overview.body()).path("groups");
        List<JsonNode> mine = new ArrayList<>();
        groups.forEach(g -> {
            if (g.path("queue").asText().equals(dlq)) {
                mine.add(g);
            }
        });
        assertThat(mine).singleElement().satisfies(g -> {
            assertThat(g.path("reasonClass").asText()).isEqualTo("BUSINESS_RULE");
            assertThat(g.path("eventType").asText()).isEqualTo("OrderCreated");
            assertThat(g.path("count").asInt()).isEqualTo(2);
            assertThat(g.path("applied").asInt()).isZero();
        });

        JsonNode page = JSON.readTree(http.get("/api/dead-letters/messages?queue=" + queue + "&type=OrderCreated&limit=1",
                VIEWER).body());
        assertThat(page.path("total").asInt()).isEqualTo(2);
        assertThat(page.path("messages")).hasSize(1);
        assertThat(page.path("messages").get(0).path("eventId").asText()).isEqualTo(sent[0].id());
        assertThat(page.path("messages").get(0).path("inbox").path("state").asText()).isEqualTo("NOT_APPLIED");
        assertThat(page.path("messages").get(0).has("body")).isFalse();
        String withBody = "/api/dead-letters/messages?queue=" + queue + "&offset=1&limit=1&body=true";
        assertError(http.get(withBody, VIEWER), 403, "body=true needs the OPERATOR role");
        JsonNode second = JSON.readTree(http.get(withBody, OPERATOR).body()).path("messages").get(0);
        assertThat(second.path("eventId").asText()).isEqualTo(sent[1].id());
        assertThat(second.path("body").asText()).isEqualTo(body(sent[1]));

        String dryRun = "{\"queue\":\"" + queue + "\",\"dryRun\":true}";
        assertThat(http.post("/api/dead-letters/redeliver", dryRun, VIEWER).statusCode()).as("viewer").isEqualTo(403);
        HttpResponse<String> report = http.post("/api/dead-letters/redeliver", dryRun, OPERATOR);
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(report.body()).path("moved").asInt()).isEqualTo(2);
        assertThat(JSON.readTree(report.body()).path("dryRun").asBoolean()).isTrue();
        Map<String, Object> audited = last(audit("dlq.redeliver"));
        assertThat(audited.get("actor")).isEqualTo("test-operator");
        assertThat(DeadLetterRedeliveryContractTest.bool(audited.get("dry_run"))).isTrue();
        assertThat(deadLetters(queue)).hasSize(2);

        openWallet("zed");
        HttpResponse<String> moved = http.post("/api/dead-letters/redeliver", "{\"ids\":[\"" + sent[1].id()
                + "\"],\"dryRun\":false,\"ratePerSecond\":100,\"inboxPolicy\":\"SKIP_APPLIED\"}", OPERATOR);
        assertThat(moved.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(moved.body()).path("moved").asInt()).isEqualTo(1);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("7")) == 0);
        assertThat(deadLetters(queue)).extracting(m -> property(m, "ce_id")).containsExactly(sent[0].id());
        assertThat(last(audit("dlq.redeliver")).get("actor")).isEqualTo("test-operator");
    }

    @Test
    void badRequestsAreRefusedNamingTheProblem() throws Exception {
        assertError(http.get("/api/dead-letters/messages?typo=1", VIEWER), 400, "filter: unknown key 'typo'");
        assertError(http.get("/api/dead-letters/messages?from=yesterday", VIEWER), 400, "'from' = 'yesterday'");
        assertError(http.get("/api/dead-letters/messages?limit=0", VIEWER), 400, "limit: 0 is outside 1-1000");
        assertError(http.get("/api/dead-letters/messages?queue=no.such.queue", VIEWER), 404,
                "no dead-letter queue 'no.such.queue' on address DLA");
        String path = "/api/dead-letters/redeliver";
        assertError(http.post(path, "{}", OPERATOR), 400, "dryRun is required");
        assertError(http.post(path, "{\"dryrun\":true}", OPERATOR), 400, "unknown field 'dryrun'");
        assertError(http.post(path, "{\"dryRun\":true,\"inboxPolicy\":\"NOPE\"}", OPERATOR), 400,
                "inboxPolicy: 'NOPE' is not one of");
        assertError(http.post(path, "{\"dryRun\":true,\"ratePerSecond\":-1}", OPERATOR), 400, "ratePerSecond: -1");
        assertError(http.post(path, "{\"dryRun\":true,\"queue\":\"no.such.queue\"}", OPERATOR), 404,
                "no dead-letter queue 'no.such.queue'");
        assertThat(http.post(path, "{\"dryRun\":", OPERATOR).statusCode()).as("not JSON").isEqualTo(400);
    }

    @Test
    void theJmxOperationsAreInHawtiosTreeAndAnOperatorRunsThemThroughJolokia() throws Exception {
        String queue = unique("it.jmx");
        twoDeadLetters(queue);
        ObjectName name = new ObjectName(DeadLetterOperatorSurface.OBJECT_NAME);
        assertThat(ManagementFactory.getPlatformMBeanServer().isRegistered(name))
                .as(ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("io.legacygateway:*"), null)
                        .toString()).isTrue();

        HttpResponse<String> list = http.get("/actuator/jolokia/list/io.legacygateway", VIEWER);
        assertThat(list.statusCode()).isEqualTo(200);
        JsonNode mbeans = JSON.readTree(list.body()).path("value");
        JsonNode deadLetters = null;
        for (var it = mbeans.fields(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().contains("type=DeadLetters") && e.getKey().contains("name=redelivery")) {
                deadLetters = e.getValue();
            }
        }
        assertThat(deadLetters).as("io.legacygateway:type=DeadLetters,name=redelivery in " + list.body()).isNotNull();
        List<String> operations = new ArrayList<>();
        deadLetters.path("op").fieldNames().forEachRemaining(operations::add);
        assertThat(operations).contains("queues", "groups", "messages", "redeliver", "redeliverWithOptions");

        String groups = "{\"type\":\"exec\",\"mbean\":\"" + DeadLetterOperatorSurface.OBJECT_NAME + "\",\"operation\":\"groups\"}";
        assertThat(http.post("/actuator/jolokia", groups, VIEWER).statusCode()).as("exec needs OPERATOR").isEqualTo(403);
        JsonNode listed = JSON.readTree(http.post("/actuator/jolokia", groups, OPERATOR).body());
        assertThat(listed.path("status").asInt()).isEqualTo(200);
        List<JsonNode> mine = new ArrayList<>();
        listed.path("value").forEach(g -> {
            if (g.path("queue").asText().equals(deadLetterQueue(queue))) {
                mine.add(g);
            }
        });
        assertThat(mine).singleElement().satisfies(g -> assertThat(g.path("count").asInt()).isEqualTo(2));

        String redeliver = "{\"type\":\"exec\",\"mbean\":\"" + DeadLetterOperatorSurface.OBJECT_NAME + "\",\"operation\":"
                + "\"redeliver\",\"arguments\":[\"" + queue + "\",\"type=OrderCreated&reasonClass=BUSINESS_RULE\",true]}";
        JsonNode report = JSON.readTree(http.post("/actuator/jolokia", redeliver, OPERATOR).body());
        assertThat(report.path("status").asInt()).as(report.toString()).isEqualTo(200);
        assertThat(report.path("value").path("dryRun").asBoolean()).isTrue();
        assertThat(report.path("value").path("moved").asInt()).isEqualTo(2);
        Map<String, Object> audited = last(audit("dlq.redeliver"));
        assertThat(audited.get("actor")).as("the Jolokia login").isEqualTo("test-operator");
        assertThat((String) audited.get("selection")).contains("type=OrderCreated&reasonClass=BUSINESS_RULE");

        String bad = "{\"type\":\"exec\",\"mbean\":\"" + DeadLetterOperatorSurface.OBJECT_NAME + "\",\"operation\":"
                + "\"redeliver\",\"arguments\":[\"" + queue + "\",\"tpye=OrderCreated\",true]}";
        JsonNode refused = JSON.readTree(http.post("/actuator/jolokia", bad, OPERATOR).body());
        assertThat(refused.path("error").asText()).contains("unknown key 'tpye'");
        assertThat(deadLetters(queue)).hasSize(2);
    }

    @Test
    void theDlqCommandListsShowsAndRedeliversThroughARunningGateway() throws Exception {
        String queue = unique("it.cli");
        EventEnvelope[] sent = twoDeadLetters(queue);
        String gateway = "--gateway=http://127.0.0.1:" + port;

        Run list = run("list", gateway, "--user=test-viewer", "--password=test-viewer-secret");
        assertThat(list.status()).as(list.output()).isZero();
        assertThat(list.output()).contains("Dead-letter address DLA");
        String groupLine = list.output().lines().filter(l -> l.startsWith(deadLetterQueue(queue) + " ")
                && l.contains("BUSINESS_RULE")).findFirst().orElseThrow(() -> new AssertionError(list.output()));
        assertThat(groupLine).contains("OrderCreated").containsPattern("\\s2\\s+0\\s")
                .contains("the effect of OrderCreated changed no row");

        Run show = run("show", gateway, "--user=test-viewer", "--password=test-viewer-secret", "--queue=" + queue);
        assertThat(show.status()).isZero();
        assertThat(show.output()).contains("2 dead letter(s) selected").contains(sent[0].id()).contains(sent[1].id())
                .contains("inbox: NOT_APPLIED");
        Run one = run("show", sent[1].id(), gateway, "--user=test-operator", "--password=test-operator-secret");
        assertThat(one.output()).contains("1 dead letter(s) selected").contains("body: " + body(sent[1]));
        assertThat(run("show", sent[1].id(), gateway, "--user=test-viewer", "--password=test-viewer-secret").output())
                .as("bodies are for operators").contains("HTTP 403");

        Run dry = run("redeliver", "--dry-run", "--queue=" + queue, gateway, "--user=test-operator",
                "--password=test-operator-secret");
        assertThat(dry.status()).as(dry.output()).isZero();
        assertThat(dry.output()).contains("DRY RUN (nothing moved): selected 2: would move 2");
        assertThat(run("redeliver", "--queue=" + queue, gateway).status()).as("neither --dry-run nor --execute")
                .isEqualTo(2);
        Run viewer = run("redeliver", "--execute", "--queue=" + queue, gateway, "--user=test-viewer",
                "--password=test-viewer-secret");
        assertThat(viewer.status()).isEqualTo(1);
        assertThat(viewer.output()).contains("HTTP 403");
        Run badPolicy = run("redeliver", "--dry-run", "--inbox-policy=NOPE", gateway, "--user=test-operator",
                "--password=test-operator-secret");
        assertThat(badPolicy.status()).isEqualTo(2);
        assertThat(badPolicy.output()).contains("inboxPolicy: 'NOPE'");

        openWallet("zed");
        Run execute = run("redeliver", "--execute", "--queue=" + queue, "--rate=100", gateway, "--user=test-operator",
                "--password=test-operator-secret");
        assertThat(execute.status()).as(execute.output()).isZero();
        assertThat(execute.output()).contains("selected 2: moved 2");
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> total("zed").compareTo(new BigDecimal("12")) == 0);
        assertThat(deadLetters(queue)).isEmpty();
    }

    private record Run(int status, String output) {
    }

    private Run run(String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = GatewayCli.execute(new DeadLettersCommand(), List.of(args),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Run(status, bytes.toString(StandardCharsets.UTF_8));
    }

    private static void assertError(HttpResponse<String> response, int status, String text) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.body()).contains(text);
    }
}
