package io.legacygateway.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The database a test class runs against, put there by {@link OnPostgres}, {@link OnMariaDb} or {@link OnH2}; read by
 * the test with {@link TestDatabase#of(Class)}. On a Spring test the database is also registered as datasource
 * {@code gateway.datasources.<dataSource>} of the context, a fresh schema of the class's own (one schema per
 * datasource name) (see
 * {@link LegacyDatabaseContextCustomizerFactory}).
 */
@Target(ElementType.ANNOTATION_TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface OnDatabase {

    TestDatabase value();

    /** The gateway datasources the database is registered as ({@code gateway.datasources.<dataSource>}). */
    String[] dataSource() default "legacy";
}
