package io.cfslab.cli;

import java.math.BigInteger;
import picocli.CommandLine;

/**
 * One reading of every integer option of the command line ({@code bench --runs}, {@code experiment --max-events},
 * …), as the API reads an integer parameter: plain decimal with an optional sign; a number past the option's type is
 * out of range, named with the range (breaker 6 F13: {@code --runs 99999999999999999999} said "is not an int",
 * picocli's words, where the API answers ERANGE), and anything else is not an integer.
 */
final class IntegerOptions {
    private IntegerOptions() {}

    /** Registers the converters of {@code int}/{@link Integer} and {@code long}/{@link Long} on {@code cl} and its subcommands. */
    static void register(CommandLine cl) {
        CommandLine.ITypeConverter<Integer> ints = s -> (int) parse(s, Integer.MIN_VALUE, Integer.MAX_VALUE, "an int");
        CommandLine.ITypeConverter<Long> longs = s -> parse(s, Long.MIN_VALUE, Long.MAX_VALUE, "a 64-bit integer");
        cl.registerConverter(Integer.class, ints);
        cl.registerConverter(int.class, ints);
        cl.registerConverter(Long.class, longs);
        cl.registerConverter(long.class, longs);
    }

    /** @throws CommandLine.TypeConversionException for text that is no decimal integer, or one outside min..max */
    static long parse(String text, long min, long max, String type) {
        String s = text.strip();
        if (!s.matches("[+-]?[0-9]+")) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not an integer (plain decimal digits)");
        }
        BigInteger v = new BigInteger(s);
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new CommandLine.TypeConversionException(text + " is out of range (" + type + ": " + min + ".." + max
                    + ") (ERANGE)");
        }
        return v.longValue();
    }
}
