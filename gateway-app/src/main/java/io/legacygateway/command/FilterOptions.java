package io.legacygateway.command;

import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * How a command's filter options ({@code @Mixin}) become the filter record of their feature: the options' values go,
 * under the record's keys, through the same factory that reads the REST query and the JMX arguments, so the command
 * refuses what the gateway would refuse, before it calls it.
 */
public final class FilterOptions {

    private FilterOptions() {
    }

    /**
     * @param mixee   the command the options are mixed into ({@code @Spec(Spec.Target.MIXEE)})
     * @param factory the record's factory from text values
     * @param values  the options' values under the record's keys ({@link GatewayApiClient#parameters})
     * @throws ParameterException bad usage (exit 2), with the factory's message naming the field and value
     */
    public static <T> T read(CommandSpec mixee, Function<Map<String, String>, T> factory, Map<String, String> values) {
        try {
            return factory.apply(values);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(mixee.commandLine(), e.getMessage());
        }
    }
}
