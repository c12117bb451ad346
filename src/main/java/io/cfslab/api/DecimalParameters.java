package io.cfslab.api;

import java.beans.PropertyEditorSupport;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Every integer path segment and query parameter ({@code …/timeline/{index}}, {@code ?repeat=}) is plain decimal in
 * its one spelling: digits without a sign, a leading zero or a prefix, or {@code -} and such digits. Spring's own
 * conversion ({@code NumberUtils.parseNumber}, its default number editors) took {@code 0x1}, {@code #1} and {@code +1}
 * as 1 but {@code 010} as 10, so one entry had many URIs, and a hex-looking one named another entry than a reader of
 * the kernel's base-0 numbers would think. Anything else is a type mismatch: 400 naming the parameter
 * ({@link ProblemHandler}). Editors, not converters: the binder falls back to its default editors when a
 * conversion-service converter refuses a value, so only an editor has the last word.
 */
@ControllerAdvice
public class DecimalParameters {
    /** The one spelling of an integer. */
    static final Pattern DECIMAL = Pattern.compile("-?(0|[1-9][0-9]*)");

    @InitBinder
    void decimalIntegers(WebDataBinder binder) {
        binder.registerCustomEditor(int.class, editor(Integer::valueOf, false));
        binder.registerCustomEditor(Integer.class, editor(Integer::valueOf, true));
        binder.registerCustomEditor(long.class, editor(Long::valueOf, false));
        binder.registerCustomEditor(Long.class, editor(Long::valueOf, true));
    }

    private static PropertyEditorSupport editor(Function<String, Number> parse, boolean nullable) {
        return new PropertyEditorSupport() {
            @Override
            public void setAsText(String text) {
                if (nullable && (text == null || text.isEmpty())) {
                    setValue(null);
                    return;
                }
                setValue(parse.apply(decimal(text))); // NumberFormatException beyond the type's range: a mismatch too
            }
        };
    }

    /**
     * Whether {@code text} is an integer in its one spelling that {@code type} (int, long or their boxes) cannot hold:
     * a value past the range is {@code ERANGE} "out of range", not "not an integer" (breaker 5 F8).
     */
    static boolean outOfRange(String text, Class<?> type) {
        if (text == null || !DECIMAL.matcher(text).matches() || text.equals("-0")) return false;
        java.math.BigInteger v = new java.math.BigInteger(text);
        boolean isInt = type == int.class || type == Integer.class;
        return v.compareTo(java.math.BigInteger.valueOf(isInt ? Integer.MIN_VALUE : Long.MIN_VALUE)) < 0
                || v.compareTo(java.math.BigInteger.valueOf(isInt ? Integer.MAX_VALUE : Long.MAX_VALUE)) > 0;
    }

    /** The range of {@code type} as a detail shows it: {@code -2147483648..2147483647}. */
    static String range(Class<?> type) {
        return type == int.class || type == Integer.class ? Integer.MIN_VALUE + ".." + Integer.MAX_VALUE
                : Long.MIN_VALUE + ".." + Long.MAX_VALUE;
    }

    /** @return {@code s} if it is a plain decimal integer; else IllegalArgumentException (a type mismatch) */
    static String decimal(String s) {
        if (s == null || !DECIMAL.matcher(s).matches() || s.equals("-0")) {
            throw new IllegalArgumentException("not a plain decimal integer: " + s);
        }
        return s;
    }
}
