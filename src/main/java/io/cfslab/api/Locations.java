package io.cfslab.api;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * {@code Location} headers (and any other link to an API resource) built from names that users chose:
 * every segment is percent-encoded except RFC 3986's unreserved characters ({@code A-Z a-z 0-9 - . _ ~}), so
 * a task named {@code a b}, {@code 50%}, {@code x#y}, {@code q?} or {@code a;b} gets a link that leads back to
 * it ({@code ;} too: {@link RequestTargetFilter} refuses a raw one). Names {@code .} and {@code ..} cannot be
 * linked to (clients remove them as dot-segments, even encoded), so the API refuses them as names.
 */
public final class Locations {
    private Locations() {}

    /** @return {@code /api/} followed by the segments, each encoded */
    public static URI api(String... segments) {
        StringBuilder sb = new StringBuilder("/api");
        for (String s : segments) sb.append('/').append(segment(s));
        return URI.create(sb.toString());
    }

    /** A cgroup path ({@code /a/b}) as encoded segments, without a leading slash for the root. */
    static String groupPath(String path) {
        StringBuilder sb = new StringBuilder();
        for (String s : path.split("/")) {
            if (s.isEmpty()) continue;
            sb.append('/').append(segment(s));
        }
        return sb.toString();
    }

    /** Percent-encodes everything but the unreserved characters, as UTF-8. */
    public static String segment(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                    || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }
}
