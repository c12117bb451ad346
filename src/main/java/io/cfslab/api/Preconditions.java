package io.cfslab.api;

import io.cfslab.store.ScenarioEntry;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The conditional headers of a write to a stored scenario or to anything below it (its cgroup files and groups, its
 * tasks, timeline and generate entries), evaluated against the scenario's ETag (its version, quoted): every resource
 * below a scenario is a part of that one document, so they share its ETag.
 * <ul>
 *   <li>{@code If-Match} (RFC 9110 13.1.1): {@code *} or a list of ETags, compared strongly (a weak tag names no
 *       version); false: 412, the method is not performed.</li>
 *   <li>{@code If-None-Match} (RFC 9110 13.1.2): a list of ETags, compared weakly: true (the current version is
 *       listed): 412. {@code *}: the write must create its resource (mkdir of a new group, a new task or timeline or
 *       generate entry: 201); a write that would change or remove an existing one (a file, an existing group, a
 *       DELETE, a scenario's PUT) answers 412.</li>
 * </ul>
 * Both are checked against the version the write read, and the write is stored only if that version is still the
 * stored one ({@code update … where version = ?}), so two writers with the same {@code If-Match} cannot both succeed.
 *
 * @param ifMatch     the {@code If-Match} header, or null
 * @param ifNoneMatch the {@code If-None-Match} header, or null
 */
public record Preconditions(String ifMatch, String ifNoneMatch) {
    /** No conditional headers. */
    public static final Preconditions NONE = new Preconditions(null, null);

    /** The conditional headers of a request. */
    public static Preconditions of(ServerHttpRequest request) {
        HttpHeaders h = request.getHeaders();
        return new Preconditions(joined(h, HttpHeaders.IF_MATCH), joined(h, HttpHeaders.IF_NONE_MATCH));
    }

    private static String joined(HttpHeaders h, String name) {
        var values = h.get(name);
        return values == null || values.isEmpty() ? null : String.join(",", values);
    }

    /** Whether any conditional header was sent. */
    public boolean any() { return ifMatch != null || ifNoneMatch != null; }

    /** Whether {@code If-None-Match: *} was sent: the write must create its resource. */
    public boolean mustCreate() {
        if (ifNoneMatch == null) return false;
        for (String t : ifNoneMatch.split(",")) if (t.strip().equals("*")) return true;
        return false;
    }

    /**
     * @return null if the ETag conditions hold for version {@code e} ({@code If-None-Match: *} aside: see
     *         {@link #mustCreate}), else the 412 to answer
     */
    public ApiException failure(ScenarioEntry e) {
        String etag = ScenarioService.etag(e);
        if (ifMatch != null && !matchesStrongly(ifMatch, etag)) {
            return failed(e, "If-Match " + ifMatch.strip() + " does not match the current version " + etag
                    + " of scenario " + e.id());
        }
        if (ifNoneMatch != null && matchesWeakly(ifNoneMatch, etag)) {
            return failed(e, "If-None-Match " + ifNoneMatch.strip() + " names the current version " + etag
                    + " of scenario " + e.id());
        }
        return null;
    }

    /** The 412 of {@code If-None-Match: *} on a write that changes an existing resource ({@code what}). */
    public static ApiException exists(ScenarioEntry e, String what) {
        return failed(e, "If-None-Match: * asks that the write create its resource, but " + what
                + " exists (scenario " + e.id() + " is at version " + ScenarioService.etag(e) + ")");
    }

    private static ApiException failed(ScenarioEntry e, String why) {
        return ApiException.of(HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id", why, null)
                .header(HttpHeaders.ETAG, ScenarioService.etag(e));
    }

    /** RFC 9110 8.8.3.2 strong comparison: both tags strong and equal; {@code *} matches any current version. */
    static boolean matchesStrongly(String list, String etag) {
        for (String tag : list.split(",")) {
            String t = tag.strip();
            if (t.equals("*") || t.equals(etag)) return true;
        }
        return false;
    }

    /** RFC 9110 8.8.3.2 weak comparison: the opaque tags equal, either or both weak. {@code *} is not a tag here. */
    static boolean matchesWeakly(String list, String etag) {
        for (String tag : list.split(",")) {
            String t = tag.strip();
            if (t.startsWith("W/")) t = t.substring(2);
            if (t.equals(etag)) return true;
        }
        return false;
    }
}
