package io.legacygateway.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.legacygateway.config.GatewayDataSources;
import io.legacygateway.deadletter.DeadLetterDepthSampler;
import io.legacygateway.inbox.InboxConsumerTemplate;
import io.legacygateway.relay.OutboxRelay;
import io.legacygateway.relay.OutboxRelayFactory;
import io.legacygateway.testsupport.OnPostgres;
import io.legacygateway.testsupport.OutboxRows;
import io.legacygateway.testsupport.StandaloneArtemis;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.yaml.snakeyaml.Yaml;

/**
 * The Grafana dashboard ({@code docker/grafana/gateway-dashboard.json}) and the alert rules
 * ({@code docker/prometheus/alerts.yml}) query only metrics a running gateway exports: a context with a relay and an
 * inbox consumer that did some work (events published and applied, one dead-lettered, a retention run, a backlog
 * sample) is scraped at
 * {@code /actuator/prometheus}, and every metric name in every query must be in the scrape. Every gateway meter name
 * has one set of tag keys (Prometheus drops the series of any other set), and retention has its series for each kind
 * it ran for (outbox, inbox, attempt log). PostgreSQL, embedded broker.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability
@ActiveProfiles("test")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@OnPostgres
class GatewayMetricsMatchDashboardAndAlertsTest {

    static final Path ROOT = StandaloneArtemis.repositoryRoot();

    @LocalServerPort
    int port;
    @Autowired
    OutboxRelayFactory relays;
    @Autowired
    CamelContext camel;
    @Autowired
    GatewayDataSources dataSources;
    @Autowired
    GatewaySampler sampler;
    @Autowired
    RetentionJob retention;
    @Autowired
    MeterRegistry meters;
    @Autowired
    DeadLetterDepthSampler deadLetterDepth;

    @Test
    void everyMetricTheDashboardAndTheAlertsQueryIsExported() throws Exception {
        JdbcTemplate db = new JdbcTemplate(dataSources.get("legacy", "test"));
        db.execute("CREATE TABLE IF NOT EXISTS metric_effect (message_id VARCHAR(255))");
        String queue = "it.metrics." + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> p = new HashMap<>();
        p.put("relay", "metrics");
        p.put("dataSource", "legacy");
        p.put("destination", "queue:" + queue);
        p.put("retention", "7d"); // so that retention runs for all three kinds: outbox, inbox, attempt log
        OutboxRelay relay = relays.create(p);
        TemplatedRouteBuilder.builder(camel, InboxConsumerTemplate.TEMPLATE).routeId("inbox-consumer-metrics")
                .parameter("consumer", "metrics").parameter("dataSource", "legacy").parameter("queue", queue)
                .parameter("accept", "OrderCreated:1")
                .parameter("effectSql", "INSERT INTO metric_effect (message_id) VALUES (:id)").add();
        OutboxRows rows = new OutboxRows(dataSources.get("legacy", "test"));
        for (int i = 0; i < 5; i++) {
            rows.insert("order-" + i, "OrderCreated", "{\"n\":" + i + "}");
        }
        rows.insert("order-9", "OrderShipped", "{}"); // a type the consumer does not accept: dead-lettered
        relay.drain(() -> false);
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> meters.counter("gateway.inbox.applied", "consumer", "metrics").count() == 5
                        && meters.find("gateway.inbox.dead.letters").counter() != null);
        retention.runOnce();
        sampler.sampleNow();
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> deadLetterDepth.sample() && meters.find("gateway.dlq.depth").gauge() != null);

        String scrape = scrape();
        assertThat(scrape.lines().filter(l -> l.startsWith("gateway_retention_deleted_total{")))
                .as("one series per kind of retention, none dropped for another set of tag keys")
                .anySatisfy(l -> assertThat(l).contains("kind=\"outbox\"").contains("owner=\"metrics\""))
                .anySatisfy(l -> assertThat(l).contains("kind=\"inbox\"").contains("owner=\"metrics\""))
                .anySatisfy(l -> assertThat(l).contains("kind=\"attempt-log\"").contains("owner=\"metrics\""));
        Map<String, Set<Set<String>>> tagKeys = new TreeMap<>();
        meters.getMeters().stream().filter(m -> m.getId().getName().startsWith("gateway.")).forEach(m ->
                tagKeys.computeIfAbsent(m.getId().getName(), k -> new HashSet<>()).add(m.getId().getTags().stream()
                        .map(Tag::getKey).collect(Collectors.toSet())));
        assertThat(tagKeys).as("every gateway meter name has one set of tag keys (Prometheus drops the others)")
                .allSatisfy((name, sets) -> assertThat(sets).as(name).hasSize(1));

        Set<String> exported = exportedNames(scrape);
        Map<String, List<String>> queried = queriedNames();
        assertThat(queried).as("the dashboard and the alert rules query something").isNotEmpty();
        List<String> missing = new ArrayList<>();
        queried.forEach((name, where) -> {
            if (!exported.contains(name)) {
                missing.add(name + " (in " + where + ")");
            }
        });
        assertThat(missing).as("queried but not exported by the gateway").isEmpty();
        assertThat(queried.keySet()).as("the metrics of this issue are all on the dashboard or in the alerts")
                .contains("gateway_outbox_pending_rows", "gateway_outbox_oldest_pending_age_seconds",
                        "gateway_outbox_failed_rows", "gateway_outbox_publish_failures_total",
                        "gateway_outbox_retries_total", "gateway_outbox_publish_latency_seconds_bucket",
                        "gateway_inbox_duplicates_total", "gateway_inbox_processing_seconds_bucket",
                        "gateway_dlq_depth", "gateway_ready", "gateway_outbox_sample_failures_total",
                        "gateway_broker_failovers_total", "gateway_broker_failover_stall_seconds_max");
    }

    private String scrape() throws Exception {
        HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(scrape.statusCode()).isEqualTo(200);
        return scrape.body();
    }

    private static Set<String> exportedNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }

    /** Metric name to the places that query it. */
    private static Map<String, List<String>> queriedNames() throws Exception {
        Map<String, List<String>> names = new HashMap<>();
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("docker/grafana/gateway-dashboard.json").toFile());
        List<String[]> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new String[] {"dashboard panel '" + panel.path("title").asText() + "'",
                        target.path("expr").asText()});
            }
        }
        for (JsonNode t : dashboard.path("templating").path("list")) {
            if (t.has("definition")) {
                queries.add(new String[] {"dashboard variable " + t.get("name").asText(), t.get("definition").asText()});
            }
        }
        Map<String, Object> alerts = new Yaml().load(Files.readString(ROOT.resolve("docker/prometheus/alerts.yml")));
        for (Object group : (List<?>) alerts.get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
                Map<?, ?> r = (Map<?, ?>) rule;
                queries.add(new String[] {"alert " + r.get("alert"), String.valueOf(r.get("expr"))});
            }
        }
        for (String[] q : queries) {
            for (String name : metricNames(q[1])) {
                names.computeIfAbsent(name, k -> new ArrayList<>()).add(q[0]);
            }
        }
        return names;
    }

    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    /** The metric names in a PromQL expression: identifiers that are neither functions, keywords, nor labels. */
    static Set<String> metricNames(String expr) {
        String s = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", " ")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replaceAll("\\boffset\\s+\\w+", " ")
                .replaceAll("\\b\\d+(\\.\\d+)?([eE][-+]?\\d+)?[a-z]*\\b", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String token = m.group();
            String rest = s.substring(m.end()).stripLeading();
            if (KEYWORDS.contains(token) || rest.startsWith("(")) {
                continue;
            }
            // label_values(metric, label): the label is not a metric
            if (s.substring(0, m.start()).matches("(?s).*label_values\\([^,]*,\\s*$")) {
                continue;
            }
            names.add(token);
        }
        assertThat(names).as("metric names in " + expr).allMatch(n -> n.startsWith("gateway_"));
        return names;
    }
}
