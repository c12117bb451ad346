package io.cfslab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Breaker 6 F13: every integer option of every command reads an integer as the API does: a number past the option's
 * type is out of range, named with the range and ERANGE ({@code bench --runs 99999999999999999999} said "is not an
 * int"), other text is not an integer. Walks the commands' own options, so an option added later is covered.
 */
class IntegerOptionsTest {
    @Test
    void everyIntegerOptionNamesItsRange() {
        CommandLine cl = new CommandLine(new Cli());
        IntegerOptions.register(cl);
        List<String> walked = new ArrayList<>();
        for (var sub : cl.getSubcommands().entrySet()) {
            for (CommandLine.Model.OptionSpec o : sub.getValue().getCommandSpec().options()) {
                Class<?> t = o.type();
                boolean isInt = t == int.class || t == Integer.class;
                if (!isInt && t != long.class && t != Long.class) continue;
                String what = sub.getKey() + " " + o.longestName();
                Throwable big = catchThrowable(() -> sub.getValue().parseArgs(o.longestName(), "99999999999999999999", "x.json"));
                assertThat(big).as(what).isInstanceOf(CommandLine.ParameterException.class);
                assertThat(big.getMessage()).as(what).contains("99999999999999999999 is out of range")
                        .contains(isInt ? "2147483647" : "9223372036854775807").contains("ERANGE").doesNotContain("is not an int");
                Throwable text = catchThrowable(() -> sub.getValue().parseArgs(o.longestName(), "ten", "x.json"));
                assertThat(text).as(what).isInstanceOf(CommandLine.ParameterException.class);
                assertThat(text.getMessage()).as(what).contains("'ten' is not an integer");
                walked.add(what);
            }
        }
        assertThat(walked).as("integer options walked").contains("bench --runs");
    }
}
