package io.legacygateway.config;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a component of a parameters record as a route-template parameter. With the component's name (the key),
 * its {@code @DefaultValue} (the default) and its constraints (the validation) this is the parameter's one definition:
 * {@link TemplateParameters} binds and validates from it, the route templates declare their Camel parameters from it,
 * and the reference tables in the docs are rendered from it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface TemplateParameter {

    /** What the parameter means, in Markdown, as the reference table shows it. */
    String value();

    /** Whether startup fails when it is not given (or blank); a required parameter has no default. */
    boolean required() default false;

    /**
     * The default as the reference shows it when it is not the {@code @DefaultValue} literal, for example
     * {@code the only one}; empty: the literal in backticks, {@code (required)}, or nothing.
     */
    String shownDefault() default "";
}
