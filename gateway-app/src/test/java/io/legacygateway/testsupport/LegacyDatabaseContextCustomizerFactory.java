package io.legacygateway.testsupport;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Registers the database of an {@link OnDatabase} test class as {@link LegacyDatabases#register} does from a
 * {@code @DynamicPropertySource}: the annotated class's own schema, all of the gateway's DDL applied. The customizer is
 * equal only for the same class, so each class keeps its own context and schema, as before. A test's own
 * {@code @DynamicPropertySource} still wins over it.
 */
public final class LegacyDatabaseContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
                                                     List<ContextConfigurationAttributes> configAttributes) {
        MergedAnnotation<OnDatabase> on = MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY)
                .get(OnDatabase.class);
        if (!on.isPresent()) {
            return null;
        }
        // the class that names the database owns the schema, as the class a @DynamicPropertySource named did: a
        // subclass that only changes a setting shares its parent's schema (and, where nothing else differs, context)
        return new Customizer((Class<?>) on.getSource(), on.getEnum("value", TestDatabase.class),
                List.of(on.getStringArray("dataSource")));
    }

    /** The property source of {@code @DynamicPropertySource} methods (Spring's {@code DynamicValuesPropertySource}). */
    private static final String DYNAMIC = "Dynamic Test Properties";

    private record Customizer(Class<?> testClass, TestDatabase database, List<String> dataSources)
            implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            Map<String, Object> properties = new HashMap<>();
            for (String dataSource : dataSources) {
                properties.putAll(LegacyDatabases.properties(dataSource, database, testClass));
            }
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            MapPropertySource source = new MapPropertySource("legacy databases of " + testClass.getName(), properties);
            if (sources.contains(DYNAMIC)) {
                sources.addAfter(DYNAMIC, source);
            } else {
                sources.addFirst(source);
            }
        }
    }
}
