package io.legacygateway.security;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.jolokia.server.core.service.api.Restrictor;
import org.jolokia.server.core.util.HttpMethod;
import org.jolokia.server.core.util.RequestType;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Jolokia's own access check ({@code restrictorClass}), asked by Jolokia after it has parsed a request, for the request
 * type, for each MBean and attribute it is about to read or write (each one a wildcard or "all attributes" read
 * resolves to) and for each operation: so it decides from exactly what Jolokia runs, whatever form the request came
 * in. The user is the one Spring Security authenticated for the request (Jolokia runs requests on the request thread).
 *
 * <ul>
 *   <li>an {@code OPERATOR} may do anything (proxy requests aside, refused by {@link JolokiaRequestGuard});</li>
 *   <li>anyone else ({@code VIEWER}; no user at all is treated the same) may only {@code read}, {@code list},
 *       {@code search} and {@code version}, invoke the read-only queries of Hawtio's console
 *       ({@link JolokiaRequestGuard#VIEWER_OPERATIONS}), and read no {@linkplain #HIDDEN_ATTRIBUTES hidden
 *       attribute}.</li>
 * </ul>
 * Hidden from viewers: {@code java.lang:type=Runtime} {@code SystemProperties} and {@code InputArguments} (secrets
 * passed as {@code -D} or on the command line), and any attribute whose name says it holds a password, secret or
 * credential.
 * A read naming one is refused; a wildcard or all-attributes read that reaches one is refused by Jolokia as a whole
 * (or, with {@code ignoreErrors}, reports the attribute as refused). Not guaranteed: a secret an MBean exposes under
 * another attribute name (list and search show names and types, never values).
 *
 * <p>{@link JolokiaRequestGuard} refuses most of this before Jolokia reads the request (with HTTP 403); this class is
 * the check that does not depend on parsing a request the way Jolokia does.
 */
public class JolokiaRoleRestrictor implements Restrictor {

    /** Attributes only an operator reads through Jolokia, by MBean. */
    static final Map<ObjectName, Set<String>> HIDDEN_ATTRIBUTES =
            Map.of(name("java.lang:type=Runtime"), Set.of("systemproperties", "inputarguments"));
    /** Attribute names that say they hold a secret. */
    static final Pattern SECRET_ATTRIBUTE = Pattern.compile("(?i).*(password|passwd|secret|credential).*");

    /** {@link JolokiaRequestGuard#VIEWER_OPERATIONS} by ObjectName (Jolokia passes names in canonical key order). */
    private static final Map<ObjectName, Set<String>> VIEWER_OPERATIONS = JolokiaRequestGuard.VIEWER_OPERATIONS
            .entrySet().stream().collect(Collectors.toUnmodifiableMap(e -> name(e.getKey()), Map.Entry::getValue));
    private static final Set<RequestType> VIEWER_TYPES =
            Set.of(RequestType.READ, RequestType.LIST, RequestType.SEARCH, RequestType.VERSION, RequestType.EXEC);

    /** Jolokia creates it by reflection from {@code management.endpoint.jolokia.config.restrictorClass}. */
    public JolokiaRoleRestrictor() {
    }

    @Override
    public boolean isHttpMethodAllowed(HttpMethod method) {
        return true;
    }

    /** Exec passes here for everybody: {@link #isOperationAllowed} decides which operations a viewer may invoke. */
    @Override
    public boolean isTypeAllowed(RequestType type) {
        return operator() || VIEWER_TYPES.contains(type);
    }

    @Override
    public boolean isAttributeReadAllowed(ObjectName name, String attribute) {
        return operator() || !hidden(name, attribute);
    }

    @Override
    public boolean isAttributeWriteAllowed(ObjectName name, String attribute) {
        return operator();
    }

    @Override
    public boolean isOperationAllowed(ObjectName name, String operation) {
        if (operator()) {
            return true;
        }
        String op = operation == null ? "" : operation;
        int signature = op.indexOf('(');
        return name != null && VIEWER_OPERATIONS.getOrDefault(name, Set.of())
                .contains(signature < 0 ? op : op.substring(0, signature));
    }

    @Override
    public boolean isRemoteAccessAllowed(String... hostOrAddress) {
        return true;
    }

    @Override
    public boolean isOriginAllowed(String origin, boolean onlyWhenStrictCheckingIsEnabled) {
        return true;
    }

    @Override
    public boolean isObjectNameHidden(ObjectName name) {
        return false;
    }

    static boolean hidden(ObjectName name, String attribute) {
        if (attribute == null) {
            return false; // each attribute of an all-attributes read is asked for by name
        }
        if (SECRET_ATTRIBUTE.matcher(attribute).matches()) {
            return true;
        }
        String lower = attribute.toLowerCase(Locale.ROOT);
        return HIDDEN_ATTRIBUTES.entrySet().stream()
                .anyMatch(e -> e.getValue().contains(lower) && (name == null || e.getKey().apply(name)
                        || name.isPattern() && name.apply(e.getKey())));
    }

    private static boolean operator() {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        return auth != null && auth.isAuthenticated()
                && auth.getAuthorities().stream().anyMatch(a -> "ROLE_OPERATOR".equals(a.getAuthority()));
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }
}
