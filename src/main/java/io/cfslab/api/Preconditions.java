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

    /**
     * Both headers are checked for their syntax alike (breaker 4 F7): {@code *} alone, or a list of entity-tags
     * ({@code "x"} or {@code W/"x"}, RFC 9110 8.8.3: etagc is {@code %x21 / %x23-7E / obs-text}; empty list
     * elements are allowed, 5.6.1, so {@code ,} and an empty field are a list of no tag). Anything else ({@code 5},
     * {@code W/5}, {@code "5}, {@code *, "6"}) is 400 {@code EINVAL} at {@code /headers/If-Match} or {@code /headers/If-None-Match}, before anything is
     * looked up (a request's syntax is judged first).
     *
     * @throws ApiException 400 for a malformed header
     */
    public Preconditions {
        checkSyntax(HttpHeaders.IF_MATCH, ifMatch);
        checkSyntax(HttpHeaders.IF_NONE_MATCH, ifNoneMatch);
    }

    private static void checkSyntax(String name, String value) {
        if (value == null || value.strip().equals("*")) return;
        // a list of empty elements only (",", or an empty field) is a list that names no tag (RFC 9110 5.6.1: a
        // recipient ignores empty elements): If-Match is then false (412) and If-None-Match true, as a list of tags
        // that do not match would be (breaker 8 F6: "," was 400 while "\"a\", " was a list)
        for (String element : value.split(",", -1)) {
            String t = element.strip();
            if (t.isEmpty()) continue;
            if (!isEntityTag(t)) {
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Malformed request", "/headers/" + name, name + " "
                        + shown(value.strip()) + " is not * nor a list of entity-tags (\"v\" or W/\"v\", RFC 9110 8.8.3"
                        + (t.equals("*") ? "; * stands alone, never in a list" : "") + ")", "EINVAL");
            }
        }
    }

    /** Whether a well-formed {@code list} holds no element at all ({@code ""}, {@code ","}, {@code " , "}). */
    static boolean noTag(String list) {
        for (String element : list.split(",", -1)) if (!element.isBlank()) return false;
        return true;
    }

    private static boolean isEntityTag(String t) {
        String opaque = t.startsWith("W/") ? t.substring(2) : t;
        if (opaque.length() < 2 || opaque.charAt(0) != '"' || opaque.charAt(opaque.length() - 1) != '"') return false;
        for (int i = 1; i < opaque.length() - 1; i++) {
            char c = opaque.charAt(i);
            // the header arrives decoded byte by byte (ISO-8859-1): obs-text is U+0080 to U+00FF
            if (!(c == 0x21 || (c >= 0x23 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF))) return false;
        }
        return true;
    }

    /**
     * A header value as the client wrote it: its bytes (which arrive one char per byte) read as UTF-8 where they are
     * UTF-8, so that {@code "é"} is not echoed as {@code "Ã©"}.
     */
    static String shown(String value) {
        byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        var decoder = java.nio.charset.StandardCharsets.UTF_8.newDecoder();
        try {
            return decoder.decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException notUtf8) {
            return value;
        }
    }

    /**
     * The conditions of a {@code POST} that creates in a collection ({@code /api/scenarios}, {@code /api/runs},
     * {@code /api/experiments}), called once the body has been read as JSON or YAML: after its syntax (400) and
     * type (415), before its content (422), as every write (docs/api.md, "Order of checks"; breaker 7 N4: the 412
     * came before a malformed body). The collection exists and has no ETag: an {@code If-Match} list names none of
     * its tags and {@code If-None-Match: *} is false as it exists (RFC 9110 13.1.1, 13.1.2; breaker 6 F8, breaker 7
     * N5), both 412 at {@code /id} with nothing created; {@code If-Match: *} and an {@code If-None-Match} list hold.
     */
    static void requireOnCollection(ServerHttpRequest request) {
        Preconditions pre = of(request);
        String path = request.getPath().value();
        if (pre.ifMatch() != null && !pre.ifMatch().strip().equals("*")) {
            throw ApiException.of(org.springframework.http.HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id",
                    "If-Match " + shown(pre.ifMatch().strip()) + " names a tag, but " + path + " (a collection) has none,"
                            + " so no tag can match (RFC 9110 13.1.1): nothing was created; send If-Match: * or none", null);
        }
        if (pre.ifNoneMatch() != null && pre.ifNoneMatch().strip().equals("*")) {
            throw ApiException.of(org.springframework.http.HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id",
                    "If-None-Match: * holds only where nothing exists, but " + path + " (a collection) exists"
                            + " (RFC 9110 13.1.2): nothing was created; send If-None-Match without * or none", null);
        }
    }

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
            return failed(e, "If-Match " + shown(ifMatch.strip()) + " does not match the current version " + etag
                    + " of scenario " + e.id());
        }
        if (ifNoneMatch != null && matchesWeakly(ifNoneMatch, etag)) {
            return failed(e, "If-None-Match " + shown(ifNoneMatch.strip()) + " names the current version " + etag
                    + " of scenario " + e.id());
        }
        return null;
    }

    /**
     * The conditions of a write (cancel, DELETE) on a run or an experiment, against its current strong {@code etag}
     * ({@link StateTags}): {@code If-Match} ({@code *} or a list, compared strongly) false, or {@code If-None-Match}
     * ({@code *}: it exists; a list naming the tag, weakly) true: 412 with the current {@code ETag}, and the method is
     * not performed (breaker5 F2: a conditional DELETE deleted anyway; then only {@code If-Match: *} could hold).
     * The tag is of the state read just before the write, in the same call.
     *
     * @param what "run 1234…", named in the 412's detail
     * @throws ApiException 412 when a condition is false
     */
    public void requireOn(String etag, String what) {
        requireMatch(etag, what);
        if (mustCreate()) {
            throw stale(etag, "If-None-Match: * asks that the resource not exist, but " + what + " exists");
        }
        if (ifNoneMatch != null && matchesWeakly(ifNoneMatch, etag)) {
            throw stale(etag, "If-None-Match " + shown(ifNoneMatch.strip()) + " names the current state " + etag + " of " + what);
        }
    }

    /**
     * {@code If-Match} alone against {@code etag}: a {@code GET}'s condition (RFC 9110 13.1.1 applies to every method;
     * {@code If-None-Match} on a read is 304's business, {@link NotModifiedFilter}).
     *
     * @throws ApiException 412 with the current {@code ETag} when it is false
     */
    public void requireMatch(String etag, String what) {
        if (ifMatch != null && !matchesStrongly(ifMatch, etag)) {
            throw stale(etag, "If-Match " + shown(ifMatch.strip()) + " does not match the current state " + etag + " of " + what);
        }
    }

    private static ApiException stale(String etag, String why) {
        return ApiException.of(HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id", why, null)
                .header(HttpHeaders.ETAG, etag);
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
