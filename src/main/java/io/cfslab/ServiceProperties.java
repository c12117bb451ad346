package io.cfslab;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.net.URL;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.convert.ApplicationConversionService;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks the {@code --name=value} properties that start the service before Spring starts (breaker 5 F3): a name
 * under {@code cfslab.*} must be one the service defines (its {@code @ConfigurationProperties} records, found by
 * reflection, and its {@code @Value} keys, {@link #VALUE_KEYS}); a name under {@code server}, {@code spring},
 * {@code management}, {@code logging}, {@code springdoc}, {@code debug}, {@code trace} must be in Spring Boot's
 * configuration metadata on the class path ({@code META-INF/spring-configuration-metadata.json} of every jar), a
 * map- or list-typed property taking any key below it. A value that Spring's own conversion service cannot turn
 * into the property's type ({@code --server.port=abc}, {@code --debug=maybe}), or a port outside -1..65535, is
 * refused too: one line naming the property and value, exit 2, instead of a stack trace after the database opened.
 * Names compare as Spring's relaxed binding compares them (case, dashes, underscores and {@code [i]} indexes aside).
 * {@code info.*} is free-form (the actuator's info endpoint), so it is not checked.
 */
public final class ServiceProperties {
    private ServiceProperties() {}

    /** The service's {@code @ConfigurationProperties} records (a test finds every one in the sources). */
    public static final List<Class<? extends Record>> PROPERTY_RECORDS = List.of(io.cfslab.runs.RunsProperties.class,
            io.cfslab.runs.QueueProperties.class, io.cfslab.runs.LiveProperties.class,
            io.cfslab.runs.RetentionProperties.class, io.cfslab.security.SecurityProperties.class);

    /** The service's {@code @Value("${cfslab…}")} keys and their types (a test finds every one in the sources). */
    public static final Map<String, Class<?>> VALUE_KEYS = Map.of("cfslab.version", String.class,
            "cfslab.warmup.rounds", Integer.class, "cfslab.http.body-timeout", java.time.Duration.class,
            "cfslab.http.large-body-timeout", java.time.Duration.class, "cfslab.security.token", String.class);

    /** The service's properties for which -1 has a meaning (application.yml says which). */
    private static final java.util.Set<String> MINUS_ONE_MEANS = java.util.Set.of(canonical("cfslab.runs.max-paced"));

    private static final List<String> METADATA_ROOTS = List.of("server", "spring", "management", "logging",
            "springdoc", "debug", "trace");

    /** A known property: its type name as the metadata gives it, and whether keys below it are free (a map, a list). */
    private record Known(String type, boolean open) {}

    private static Map<String, Known> known;

    /** The first problem of the service's arguments, one line, or null when they all bind. */
    public static String problem(String[] args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (String a : args) {
            if (!a.startsWith("--") || a.indexOf('=') < 0) continue; // --debug, --trace: switches
            String name = a.substring(2, a.indexOf('='));
            String value = a.substring(a.indexOf('=') + 1);
            String why = problem(name, value);
            if (why != null) return "cfslab: " + why;
            // breaker 9 F30: given twice, Spring joined the values ("18471,18472") and failed after it started
            String before = given.putIfAbsent(canonical(name), a);
            if (before != null) {
                return "cfslab: property " + before + " and " + a + ": given twice; give it once; cfslab --help";
            }
        }
        return null;
    }

    private static String problem(String name, String value) {
        String canon = canonical(name);
        String root = canon.split("\\.", 2)[0];
        boolean own = root.equals("cfslab");
        if (!own && !METADATA_ROOTS.contains(root)) return null;
        Map<String, Known> all = known();
        Known k = all.get(canon);
        if (k == null) {
            for (String prefix = parent(canon); prefix != null; prefix = parent(prefix)) {
                Known p = all.get(prefix);
                if (p != null && p.open()) return null;
            }
            return "unknown property '--" + name + "=" + value + "': " + (own ? "the service defines no such cfslab.*"
                    + " setting (see application.yml)" : "Spring Boot has no such setting") + " (a misspelt one would"
                    + " be ignored); cfslab --help";
        }
        return badValue(name, value, k.type());
    }

    /** Why Spring could not bind {@code value} to a property of type {@code typeName}, or null. */
    private static String badValue(String name, String value, String typeName) {
        if (typeName == null || typeName.contains("<") || value.isEmpty()) return null;
        Class<?> type;
        try {
            type = switch (typeName) { // a record component's primitive type: its box converts the same text
                case "int" -> Integer.class;
                case "long" -> Long.class;
                case "boolean" -> Boolean.class;
                case "double" -> Double.class;
                default -> Class.forName(typeName, false, ServiceProperties.class.getClassLoader());
            };
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        boolean whole = type == Integer.class || type == Long.class || type == Short.class;
        if (whole && !value.strip().matches("-?[0-9]+")) {
            // plain decimal digits, as the command line's integer options take them: Spring's conversion also took
            // "+5" and "0x10" (breaker 9 F30)
            return "property --" + name + "=" + value + ": '" + value + "' is not a whole number in plain decimal"
                    + " digits; cfslab --help";
        }
        Object bound;
        try {
            bound = ApplicationConversionService.getSharedInstance().convert(value.strip(), type);
        } catch (RuntimeException e) {
            return "property --" + name + "=" + value + ": '" + value + "' is not a " + simple(type) + "; cfslab --help";
        }
        if (bound instanceof Integer port && canonical(name).endsWith(".port") && (port < -1 || port > 65535)) {
            return "property --" + name + "=" + value + ": a port is 0..65535 (or -1: no server); cfslab --help";
        }
        // the service's own counts, bounds and times are 0 or more: a negative one was taken and meant nothing
        // (breaker 9 F30: --cfslab.runs.queue.max=-5 started, and no run was ever refused)
        boolean negative = bound instanceof Number n && n.longValue() < 0
                || bound instanceof java.time.Duration d && d.isNegative();
        boolean minusOneMeans = MINUS_ONE_MEANS.contains(canonical(name)) && bound instanceof Number n && n.longValue() == -1;
        if (negative && !minusOneMeans && canonical(name).startsWith("cfslab.")) {
            return "property --" + name + "=" + value + ": must be 0 or more (ERANGE); cfslab --help";
        }
        return null;
    }

    private static String simple(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) return "whole number";
        if (type == Boolean.class || type == boolean.class) return "boolean (true or false)";
        if (type == java.time.Duration.class) return "duration such as 10s";
        return type.getSimpleName();
    }

    private static String parent(String canon) {
        int dot = canon.lastIndexOf('.');
        return dot < 0 ? null : canon.substring(0, dot);
    }

    /** Relaxed binding's form: lower case, no dashes or underscores, no {@code [i]} indexes. */
    static String canonical(String name) {
        return name.replaceAll("\\[[^\\]]*\\]", "").replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

    private static synchronized Map<String, Known> known() {
        if (known != null) return known;
        Map<String, Known> m = new LinkedHashMap<>();
        for (Class<? extends Record> r : PROPERTY_RECORDS) {
            String prefix = r.getAnnotation(org.springframework.boot.context.properties.ConfigurationProperties.class)
                    .value();
            for (RecordComponent c : r.getRecordComponents()) {
                m.put(canonical(prefix + "." + c.getName()), new Known(c.getType().getName(),
                        Map.class.isAssignableFrom(c.getType()) || Iterable.class.isAssignableFrom(c.getType())));
            }
        }
        VALUE_KEYS.forEach((key, type) -> m.put(canonical(key), new Known(type.getName(), false)));
        JsonMapper json = JsonMapper.builder().build();
        try {
            Enumeration<URL> files = ServiceProperties.class.getClassLoader()
                    .getResources("META-INF/spring-configuration-metadata.json");
            while (files.hasMoreElements()) {
                try (InputStream in = files.nextElement().openStream()) {
                    for (JsonNode p : json.readTree(in).path("properties")) {
                        String type = p.path("type").isString() ? p.path("type").stringValue() : null;
                        boolean open = type != null && (type.startsWith("java.util.Map") || type.startsWith("java.util.List")
                                || type.startsWith("java.util.Set") || type.startsWith("java.util.Collection"));
                        m.putIfAbsent(canonical(p.path("name").stringValue()), new Known(type, open));
                    }
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        known = m;
        return m;
    }

    /** Every known property name, canonical (for tests). */
    static List<String> names() { return new ArrayList<>(known().keySet()); }
}
