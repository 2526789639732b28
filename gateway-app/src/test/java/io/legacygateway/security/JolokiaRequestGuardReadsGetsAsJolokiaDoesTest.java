package io.legacygateway.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jolokia.server.core.config.ConfigKey;
import org.jolokia.server.core.request.JolokiaRequest;
import org.jolokia.server.core.request.JolokiaRequestFactory;
import org.jolokia.server.core.request.ProcessingParameters;
import org.jolokia.server.core.util.RequestType;
import org.junit.jupiter.api.Test;
import org.springframework.web.util.UriUtils;

/**
 * The guard's reading of a GET against Jolokia 2.1.1's own: {@link JolokiaRequestFactory#createGetRequest} with the
 * path info, or, when that is empty or only slashes, the processing parameter {@code p}, which Jolokia's
 * {@code HttpRequestHandler} takes from the FIRST value of the container's parameter map. Over every combination of
 * paths and {@code p} lists below, whatever the guard lets a viewer pass, Jolokia reads as read, list, search or
 * version (or refuses as malformed).
 */
class JolokiaRequestGuardReadsGetsAsJolokiaDoesTest {

    static final Set<RequestType> READ_ONLY =
            EnumSet.of(RequestType.READ, RequestType.LIST, RequestType.SEARCH, RequestType.VERSION);
    static final List<String> PATHS = List.of("", "/", "//", "/read/java.lang:type=Memory/HeapMemoryUsage",
            "/exec/java.lang:type=Memory/gc", "/write/java.lang:type=Memory/Verbose/true", "/notification/register",
            "/list/java.lang", "/search/java.lang:*", "/version", "read/java.lang:type=Memory",
            "//exec/java.lang:type=Memory/gc", "/EXEC/java.lang:type=Memory/gc", "/exec!/x/java.lang:type=Memory/gc",
            "/re!ad/java.lang:type=Memory", "/read!/exec/java.lang:type=Memory/gc", "/%65xec/java.lang:type=Memory/gc",
            "/read%2Fexec/java.lang:type=Memory/gc");

    @Test
    void whatTheGuardPassesJolokiaReadsAsReadOnly() {
        int passed = 0;
        List<List<String>> pLists = new ArrayList<>();
        pLists.add(List.of());
        for (String p : PATHS) {
            pLists.add(List.of(p));
            for (String q : PATHS) {
                pLists.add(List.of(p, q));
            }
        }
        for (String rawPath : PATHS) {
            for (List<String> ps : pLists) {
                Map<String, String[]> parameters = ps.isEmpty() ? Map.of() : Map.of("p", ps.toArray(String[]::new));
                String refusal = JolokiaRequestGuard.checkGet("GET", rawPath, parameters);
                if (refusal != null) {
                    continue;
                }
                passed++;
                String pathInfo = rawPath.isEmpty() ? null : decode(rawPath); // no path: the container gives null
                RequestType type = jolokiaType(pathInfo, ps.isEmpty() ? null : ps.get(0));
                assertThat(type == null || READ_ONLY.contains(type))
                        .as("guard passed path '%s' with p %s; Jolokia reads %s", rawPath, ps, type).isTrue();
            }
        }
        assertThat(passed).as("read-only requests pass").isPositive();
    }

    @Test
    void theReportedExploitsAreRefusedAndTheirJolokiaReadingIsExec() {
        String exec = "/exec/java.lang:type=Memory/gc";
        String read = "/read/java.lang:type=Memory/HeapMemoryUsage";
        assertThat(jolokiaType(exec, read)).isEqualTo(RequestType.EXEC);
        assertThat(JolokiaRequestGuard.checkGet("GET", exec, Map.of("p", new String[] {read}))).isNotNull();
        assertThat(jolokiaType("/", exec)).isEqualTo(RequestType.EXEC);
        assertThat(JolokiaRequestGuard.checkGet("GET", "/", Map.of("p", new String[] {exec, read}))).isNotNull();
        // %70 arrives as "p": the container decodes parameter names, and the guard reads the container's map
        assertThat(JolokiaRequestGuard.checkGet("GET", "/", Map.of("p", new String[] {exec}))).isNotNull();
    }

    /** Jolokia's type for a GET, or null when Jolokia refuses the request as malformed. */
    private static RequestType jolokiaType(String pathInfo, String firstP) {
        Map<ConfigKey, String> config = new EnumMap<>(ConfigKey.class);
        if (firstP != null) {
            config.put(ConfigKey.PATH_QUERY_PARAM, firstP);
        }
        try {
            JolokiaRequest request = JolokiaRequestFactory.createGetRequest(pathInfo, new ProcessingParameters(config));
            return request.getType();
        } catch (RuntimeException malformed) {
            return null;
        }
    }

    /** The path info the container hands Jolokia: percent-decoded. */
    private static String decode(String raw) {
        return UriUtils.decode(raw, StandardCharsets.UTF_8);
    }
}
