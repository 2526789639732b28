package io.legacygateway.security;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriUtils;

/**
 * Looks inside every Jolokia request (at {@code /actuator/jolokia} and through Hawtio's {@code /actuator/hawtio/jolokia})
 * before Jolokia runs it, and refuses with HTTP 403 and a Jolokia-style JSON error:
 * <ul>
 *   <li>any <b>proxy request</b>: a POST request (or one of a bulk) with a {@code target} element, or a {@code target}
 *       query parameter. Proxy mode makes the gateway open a JMX connection to a URL the caller chooses: the origin of
 *       CVE-2018-1000130 and GHSA-c9ff-59g8-m36q. Its module ({@code jolokia-service-jsr160}) is also excluded from the
 *       build; this check keeps the refusal explicit whatever the classpath holds;</li>
 *   <li>for users without the {@code OPERATOR} role, every request type other than {@code read}, {@code list},
 *       {@code search} and {@code version} ({@code exec}, {@code write}, notifications), except the read-only
 *       queries of Hawtio's console ({@link #VIEWER_OPERATIONS}): viewers look, operators act. A GET is read as
 *       Jolokia reads it, and refused where that is ambiguous ({@link #checkGet}); a POST body is read in the
 *       encoding Jolokia reads it in;</li>
 *   <li>a POST body that is not a JSON object or array of objects, has duplicate keys, or exceeds
 *       {@value #MAX_BODY_BYTES} bytes: what cannot be checked is not passed on.</li>
 * </ul>
 * It runs after authorization, so only logged-in users reach it. {@link JolokiaRoleRestrictor}, inside Jolokia, checks
 * the same roles again on the parsed request, and hides secret-bearing attributes from viewers.
 */
final class JolokiaRequestGuard extends OncePerRequestFilter {

    static final int MAX_BODY_BYTES = 1024 * 1024;
    static final Set<String> READ_ONLY_TYPES = Set.of("read", "list", "search", "version");
    /**
     * The operations a viewer may invoke, by MBean: the read-only queries Hawtio's console makes when it starts (the
     * MBean tree, and whether the user may invoke operations). Without them Hawtio shows a viewer no plugins.
     */
    static final Map<String, Set<String>> VIEWER_OPERATIONS = Map.of(
            "hawtio:type=security,name=RBACRegistry", Set.of("list"),
            "hawtio:type=security,area=jmx,name=HawtioDummyJMXSecurity", Set.of("canInvoke"));
    private static final Pattern EMPTY_PATH = Pattern.compile("/*");
    static final String PROXY_REFUSED = "Jolokia proxy requests (with a \"target\") are disabled in this gateway";

    private static final Logger log = LoggerFactory.getLogger(JolokiaRequestGuard.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final List<String> jolokiaPaths;

    /** @param jolokiaPaths the paths Jolokia answers at, without context path, for example {@code /actuator/jolokia} */
    JolokiaRequestGuard(List<String> jolokiaPaths) {
        this.jolokiaPaths = List.copyOf(jolokiaPaths);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return subPath(request) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        List<String> query = queryParameterNames(request.getQueryString());
        if (query.contains("target")) {
            refuse(response, PROXY_REFUSED);
            return;
        }
        boolean operator = isOperator();
        String method = request.getMethod();
        if ("POST".equals(method)) {
            byte[] body = request.getInputStream().readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                refuse(response, "Jolokia request larger than " + MAX_BODY_BYTES + " bytes");
                return;
            }
            Charset charset;
            try {
                // Jolokia reads the body in the request's encoding, UTF-8 when it has none
                charset = Charset.forName(request.getCharacterEncoding() == null ? "UTF-8"
                        : request.getCharacterEncoding());
            } catch (IllegalArgumentException e) {
                refuse(response, "Jolokia request in an unknown encoding: " + request.getCharacterEncoding());
                return;
            }
            String refusal = checkBody(new String(body, charset), operator);
            if (refusal != null) {
                refuse(response, refusal);
                return;
            }
            chain.doFilter(new CachedBodyRequest(request, body), response);
            return;
        }
        if (!operator) {
            String refusal = checkGet(method, subPath(request), request.getParameterMap());
            if (refusal != null) {
                refuse(response, refusal);
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /**
     * Whether a viewer's non-POST request may pass. Jolokia 2.1.1 takes a GET's request from its path info when that
     * is not empty (nor only slashes), else from the FIRST {@code p} parameter, with parameter names as the container
     * decoded them. Decided from the same, and refused where a reading could differ: {@code p} next to a non-empty
     * path, more than one {@code p}, a type not spelt exactly {@code read}, {@code list}, {@code search} or
     * {@code version}, a method other than GET, HEAD (runs as a GET in the servlet) and OPTIONS (CORS preflight).
     *
     * @param subPath    the raw (still percent-encoded) path after Jolokia's path
     * @param parameters the parameters as the container decoded them (for a GET, its query's)
     * @return why it is refused, or null when it may pass
     */
    static String checkGet(String method, String subPath, Map<String, String[]> parameters) {
        if ("OPTIONS".equals(method)) {
            return null;
        }
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return "Jolokia " + method + " requests need the OPERATOR role";
        }
        String[] p = parameters.get("p");
        if (p != null && p.length > 1) {
            return "a Jolokia GET request with more than one 'p' parameter is ambiguous";
        }
        String path;
        try {
            path = UriUtils.decode(subPath, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "a Jolokia GET request whose path cannot be decoded";
        }
        boolean emptyPath = EMPTY_PATH.matcher(path).matches();
        if (p != null && !emptyPath) {
            return "a Jolokia GET request with both a path and a 'p' parameter is ambiguous";
        }
        String type = getRequestType(emptyPath ? (p == null ? "" : p[0]) : path);
        return READ_ONLY_TYPES.contains(type) ? null : "Jolokia '" + type + "' requests need the OPERATOR role";
    }

    /** @return why the POST body is refused, or null when it may pass */
    static String checkBody(String body, boolean operator) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return "Jolokia request body is not valid JSON: " + e.getOriginalMessage();
        } catch (IOException e) {
            return "Jolokia request body could not be read: " + e.getMessage();
        }
        List<JsonNode> requests = new ArrayList<>();
        if (root != null && root.isArray()) {
            root.forEach(requests::add);
        } else {
            requests.add(root);
        }
        for (JsonNode r : requests) {
            if (r == null || !r.isObject()) {
                return "Jolokia request must be a JSON object or an array of objects";
            }
            if (r.has("target")) {
                return PROXY_REFUSED;
            }
            String type = r.path("type").asText("").toLowerCase(Locale.ROOT);
            if (!operator && !READ_ONLY_TYPES.contains(type) && !hawtioConsoleQuery(type, r)) {
                return "Jolokia '" + type + "' requests need the OPERATOR role";
            }
        }
        return null;
    }

    private static boolean hawtioConsoleQuery(String type, JsonNode request) {
        String operation = request.path("operation").asText("");
        int signature = operation.indexOf('(');
        return type.equals("exec") && VIEWER_OPERATIONS.getOrDefault(request.path("mbean").asText(""), Set.of())
                .contains(signature < 0 ? operation : operation.substring(0, signature));
    }

    /**
     * The request type a GET path names: its first segment, leading slashes aside, exactly as written (Jolokia's
     * {@code !} escapes and other spellings are not resolved: they do not match a read-only type and are refused).
     */
    static String getRequestType(String path) {
        String trimmed = path.replaceFirst("^/+", "");
        if (trimmed.isEmpty()) {
            return "version";
        }
        int slash = trimmed.indexOf('/');
        return slash < 0 ? trimmed : trimmed.substring(0, slash);
    }

    /** The part after the Jolokia path, "" for the path itself, null when the request is not for Jolokia. */
    private String subPath(HttpServletRequest request) {
        String uri = request.getRequestURI().substring(request.getContextPath().length());
        for (String p : jolokiaPaths) {
            if (uri.equals(p) || uri.startsWith(p + "/")) {
                return uri.substring(p.length());
            }
        }
        return null;
    }

    private static List<String> queryParameterNames(String queryString) {
        List<String> names = new ArrayList<>();
        if (queryString != null) {
            for (String pair : queryString.split("&")) {
                int eq = pair.indexOf('=');
                names.add(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8));
            }
        }
        return names;
    }

    private static boolean isOperator() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        return auth != null && auth.getAuthorities().stream().anyMatch(a -> "ROLE_OPERATOR".equals(a.getAuthority()));
    }

    private static void refuse(HttpServletResponse response, String reason) throws IOException {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        log.warn("Refused a Jolokia request of user '{}': {}", auth == null ? null : auth.getName(), reason);
        ObjectNode error = JsonNodeFactory.instance.objectNode()
                .put("status", HttpServletResponse.SC_FORBIDDEN)
                .put("error_type", "java.lang.SecurityException")
                .put("error", "java.lang.SecurityException : " + reason);
        response.setStatus(HttpServletResponse.SC_FORBIDDEN);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(error.toString());
    }

    /** The request with its already-read body available again to Jolokia. */
    private static final class CachedBodyRequest extends HttpServletRequestWrapper {
        private final byte[] body;

        CachedBodyRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("synchronous reads only");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            String charset = getCharacterEncoding() != null ? getCharacterEncoding() : StandardCharsets.UTF_8.name();
            return new BufferedReader(new InputStreamReader(getInputStream(), Charset.forName(charset)));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
