package io.legacygateway.adapters.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The database a contract test class runs against, put there by {@link OnPostgres}, {@link OnMariaDb} or
 * {@link OnH2}; read by the test with {@link ContractDatabase#of(Class)}.
 */
@Target(ElementType.ANNOTATION_TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface OnDatabase {

    ContractDatabase value();
}
