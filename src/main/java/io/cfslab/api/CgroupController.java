package io.cfslab.api;

import io.cfslab.scenario.CgroupFiles;
import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.InvalidValueException;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.scenario.TimelineRefs;
import io.cfslab.store.Jdbc;
import io.cfslab.store.ScenarioEntry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cgroup tree of a stored scenario, as cgroupfs shows it:
 * <ul>
 *   <li>{@code GET /api/scenarios/{id}/cgroups}: every group, root first:
 *       {@code [{"path","parent","children":[..],"tasks":[..],"files":{"cpu.max","cpu.max.burst","cpu.weight"}}]}</li>
 *   <li>{@code PUT …/cgroups/{path}}: {@code mkdir -p} (201 new, 200 existed); {@code DELETE}: {@code rmdir}
 *       (204; 409 {@code EBUSY} with children or tasks; 404 {@code ENOENT}); {@code GET}: the group.</li>
 *   <li>{@code PUT …/cgroups/{path}/cpu.max} with {@code text/plain} {@code 50000 100000} (period optional:
 *       kept), likewise {@code cpu.max.burst} (µs) and {@code cpu.weight} (1..10000); {@code GET} prints the
 *       value as the kernel does, with its newline.</li>
 *   <li>{@code POST /api/scenarios/{id}/cgroups:generate}: appends a contract {@code generate} entry.</li>
 * </ul>
 * Refused writes answer a problem naming the document field (e.g. {@code /cgroups/2/cpu.max}) and the errno.
 */
@RestController
@RequestMapping("/api/scenarios/{id}")
public class CgroupController {
    /** Files a group has in this API. */
    static final Set<String> FILES;
    static {
        Set<String> all = new java.util.LinkedHashSet<>(CgroupFiles.FILES);
        all.addAll(CgroupFiles.FILES_V1); // a cgroup v1 scenario's files: cpu.cfs_quota_us, cpu.shares, ...
        FILES = Set.copyOf(all);
    }
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.-]+");

    private final ScenarioService scenarios;
    private final Jdbc jdbc;

    public CgroupController(ScenarioService scenarios, Jdbc jdbc) {
        this.scenarios = scenarios;
        this.jdbc = jdbc;
    }

    @Operation(summary = "The whole tree, root first, each group with its files")
    @ApiResponse(responseCode = "200", description = "every group, root first", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "CgroupGroup"))))
    @Problems(404)
    @GetMapping("/cgroups")
    public Mono<List<Map<String, Object>>> tree(@PathVariable String id, ServerWebExchange exchange) {
        return jdbc.call(() -> treeOf(id, exchange));
    }

    private List<Map<String, Object>> treeOf(String id, ServerWebExchange exchange) {
        Scenario s = scenarios.parse(ScenarioService.tagged(scenarios.get(id), exchange));
        Map<String, List<String>> children = new LinkedHashMap<>();
        Map<String, List<String>> tasks = new LinkedHashMap<>();
        for (CgroupSpec c : s.cgroups()) children.computeIfAbsent(parentOf(c.path()), k -> new ArrayList<>()).add(c.path());
        for (TaskSpec t : s.tasks()) {
            for (String g : t.cgroups()) {
                List<String> names = tasks.computeIfAbsent(g, k -> new ArrayList<>());
                if (!names.contains(t.name())) names.add(t.name());
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(groupView(s, "/", null, children.getOrDefault("/", List.of()), tasks.getOrDefault("/", List.of())));
        for (CgroupSpec c : s.cgroups()) {
            out.add(groupView(s, c.path(), c, children.getOrDefault(c.path(), List.of()), tasks.getOrDefault(c.path(), List.of())));
        }
        return out;
    }

    @Operation(summary = "A group (JSON) or one of its files (text/plain, as the kernel prints it)")
    @ApiResponse(responseCode = "200", description = "the group", content = @Content(mediaType = "application/json", schema = @Schema(ref = "CgroupGroup")))
    @Problems(404)
    // a group is JSON, a file text/plain (as cat prints it): the path decides which, and the answer is checked against
    // the Accept header when it is written, q=0 ranges included, after the group was found (AcceptChecked: 404 before
    // 406); no produces, which would refuse the other
    @GetMapping("/cgroups/{*path}")
    public Mono<ResponseEntity<Object>> read(@PathVariable String id, @PathVariable String path,
                                             ServerHttpRequest request, ServerWebExchange exchange) {
        return jdbc.call(() -> {
            Found f = locate(id, path);
            ScenarioService.tagged(f.entry(), exchange);
            if (f.target().file() == null) {
                String g = f.target().group();
                return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).<Object>body(groupView(f.scenario(), g,
                        f.group(), children(f.scenario(), g), tasksIn(f.scenario(), g)));
            }
            return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).<Object>body(fileValue(f.group(), f.target().file()) + "\n");
        });
    }

    /** A group or file as GET finds it: the scenario, the target, and the group's state (or a file's group's). */
    record Found(Scenario scenario, Target target, CgroupSpec group, ScenarioEntry entry) { }

    /**
     * Finds what {@code path} names in scenario {@code id}, as a GET reads it (blocking: call it on the JDBC
     * scheduler); every method looks its resource up this way first, so that each answers 404 where GET does.
     * @throws ApiException 404 {@code ENOENT}: no such scenario, group, or file in this scenario's version and kernel
     */
    Found locate(String id, String path) {
        Target target = Target.of(path);
        ScenarioEntry entry = scenarios.get(id);
        Scenario s = scenarios.parse(entry);
        Target t = target.file() == null && CgroupFiles.Rules.of(s.kernel()).cgroupVersion() == 1
                && find(s, target.group()) == null && V1_FILE_NAMES.contains(target.last()) ? target.asFile() : target;
        CgroupSpec c = find(s, t.group());
        if (c == null && !t.group().equals("/")) throw enoent(t.group());
        if (t.file() == null) return new Found(s, t, c, entry);
        CgroupFiles.Rules rules = CgroupFiles.Rules.of(s.kernel());
        if (firstFileDecides(rules, t.file(), ScenarioDocs.readObject(entry.document(), ""))) {
            rules = rules.withCgroupVersion(1); // as a write of it would find it: v1's default
            if (c != null) c = CgroupFiles.newGroupV1(c.path());
        }
        checkFileHere(t, rules);
        if (target.slashAfterFile() || t != target && path.endsWith("/")) {
            // cat cpu.max/: the file exists, but a slash after it asks for a directory (ENOTDIR), for every method
            throw enotdir(t);
        }
        if (c == null) c = CgroupFiles.newGroupV1("/"); // v1's root has the files (checkFileHere: v2's has none)
        return new Found(s, t, c, entry);
    }

    @Operation(summary = "mkdir -p a group, or write a file (text/plain body)")
    @ApiResponse(responseCode = "201", description = "created; Location names it", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MkdirResult")))
    @ApiResponse(responseCode = "200", description = "existed already", content = @Content(mediaType = "application/json", schema = @Schema(ref = "MkdirResult")))
    @Problems(value = {404, 409, 412, 422}, notes = {"409: a name of a cgroup file (cgroup.*, cpu.*: EEXIST), or a read-only scenario (EPERM)", "422: a name of other characters than letters, digits, _ . - (EINVAL), a name over 255 bytes (ENAMETOOLONG), or a tree over the limits"})
    @PutMapping("/cgroups/{*path}")
    public Mono<ResponseEntity<Object>> write(@PathVariable String id, @PathVariable String path,
                                              @RequestBody(required = false) byte[] body, ServerHttpRequest request,
                                              @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        Preconditions pre = new Preconditions(ifMatch, ifNoneMatch);
        Target t = Target.of(path);
        MediaType type = request.getHeaders().getContentType();
        // the body is bytes, not decoded (a charset parameter changes nothing): echo writes bytes and the kernel's
        // parsers read them, so a byte that is not UTF-8 reaches the file's parser as it is
        boolean textPlain = type != null && MediaType.TEXT_PLAIN.equalsTypeAndSubtype(type);
        if (t.file() != null && t.slashAfterFile()) {
            // echo x > cpu.max/: ENOTDIR, nothing written (breaker 8 F4: the slash was dropped and the file written);
            // the scenario, group and file are looked up first, as open() walks the path
            return jdbc.call(() -> locate(id, path)).then(Mono.empty());
        }
        if (!textPlain && body != null && body.length > 0) {
            // a mkdir takes no body (breaker 8 F5, breaker 7 N12: a JSON or untyped body made the group and was
            // dropped, so a mistyped file name became a new group); a file takes text/plain: 415 either way
            return Mono.error(unsupportedBody(t, type));
        }
        if (t.file() == null && textPlain && !t.group().equals("/")) {
            // echo value > /web/tasks: a write, never a mkdir; the directory must exist and hold the file (ENOENT)
            Target file = t.asFile();
            t = new Target(file.group(), file.file(), path.endsWith("/")); // cgroup v1's tasks/: ENOTDIR (writeFile)
        }
        if (t.file() == null && textPlain) {
            // echo x > /sys/fs/cgroup/: a write to a directory, which the kernel refuses (EISDIR); it was a mkdir of the
            // root that dropped the body (breaker 6 F9). Judged as content, after the scenario, ready-made and
            // If-Match checks, as every write (breaker 7 N3: it answered 422 for a scenario that does not exist)
            return scenarios.editFile(id, pre, (doc, s) -> { throw eisdir("/"); });
        }
        if (t.file() == null) {
            return mkdir(id, pre, t.group());
        }
        if (!textPlain && !FILES.contains(t.file())) {
            // a PUT without a value to a kernel file's name (cgroup.procs, cpu.idle): a mkdir, EEXIST as the kernel's
            return mkdir(id, pre, (t.group().equals("/") ? "" : t.group()) + "/" + t.file());
        }
        if (!textPlain) return Mono.error(unsupportedBody(t, type)); // a modelled file's PUT without a value
        // the bytes as written, white space included: each file's parser takes what the kernel's takes (sscanf for
        // cpu.max, kstrtoull/kstrtoll with one trailing newline for the number files), at most PAGE_SIZE of them
        return writeFile(id, pre, t, body == null ? new byte[0] : body);
    }

    /**
     * 415 at {@code /headers/Content-Type}: a PUT whose body is not {@code text/plain}. A file takes text/plain only;
     * a mkdir (a PUT to a group) takes no body at all, so a body of any other type is refused rather than dropped.
     */
    /**
     * The 415 of a {@code PUT} to a cgroup path whose body Spring refused before the operation ran (a form-urlencoded
     * body, {@code Content-Type: *}{@code /*}), or null for any other request: the same problem as the operation's own.
     */
    static ApiException unsupportedBody(org.springframework.web.server.ServerWebExchange exchange) {
        var request = exchange.getRequest();
        String[] parts = request.getPath().value().split("/", 6); // "", api, scenarios, {id}, cgroups, rest
        if (request.getMethod() != org.springframework.http.HttpMethod.PUT || parts.length < 5
                || !parts[1].equals("api") || !parts[2].equals("scenarios") || !parts[4].equals("cgroups")) {
            return null;
        }
        MediaType type;
        try {
            type = request.getHeaders().getContentType();
        } catch (org.springframework.http.InvalidMediaTypeException bad) {
            type = null;
        }
        return unsupportedBody(Target.of(parts.length == 6 ? "/" + parts[5] : "/"), type);
    }

    private static ApiException unsupportedBody(Target t, MediaType type) {
        String given = type == null ? "a body without Content-Type" : type.getType() + "/" + type.getSubtype();
        String why = t.file() != null && FILES.contains(t.file())
                ? "a cgroup file takes text/plain only (its bytes are written as echo writes them), not " + given
                        + "; write " + t.file() + " with Content-Type text/plain"
                : "a mkdir (a PUT to a group) takes no body, and a file write takes text/plain, not " + given
                        + ": send the PUT of " + t.group() + (t.file() == null ? "" : "/" + t.file())
                        + " without a body to make the group, or write a file (…/<group>/<file>) as text/plain";
        return ApiException.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type", "/headers/Content-Type",
                why, "EINVAL").header(HttpHeaders.ACCEPT, MediaType.TEXT_PLAIN_VALUE);
    }

    /** Methods of a file: it can be read and written, not removed. */
    static final String FILE_ALLOW = "GET,HEAD,PUT,OPTIONS";
    /** Methods of a group. */
    static final String GROUP_ALLOW = "GET,HEAD,PUT,DELETE,OPTIONS";

    @Operation(summary = "The methods a group or file allows (a file cannot be deleted)")
    @ApiResponse(responseCode = "200", description = "Allow lists them")
    @Problems(value = 404, notes = "404: the scenario, group or file does not exist, as GET answers (ResourceMethods)")
    @RequestMapping(path = "/cgroups/{*path}", method = RequestMethod.OPTIONS)
    public ResponseEntity<Void> options(@PathVariable String path) {
        return ResponseEntity.ok().header(HttpHeaders.ALLOW, allowOf(path)).build();
    }

    /** @return the methods {@code …/cgroups/{path}} answers: a file's, or a group's (which can be removed) */
    static String allowOf(String path) { return Target.of(path).file() == null ? GROUP_ALLOW : FILE_ALLOW; }

    @Operation(summary = "rmdir a group: 409 EBUSY while it has children or tasks")
    @ApiResponse(responseCode = "204", description = "removed")
    @Problems(value = {404, 409, 412, 422}, notes = "409: it has children or tasks, is the root, or is made by a generate entry (EBUSY)")
    @DeleteMapping("/cgroups/{*path}")
    public Mono<ResponseEntity<Void>> rmdir(@PathVariable String id, @PathVariable String path,
                                            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        Target given = Target.of(path);
        // a file the API models cannot be removed (405); any other name is looked up as a group (404 if none)
        Target t = given.file() != null && !FILES.contains(given.file())
                ? new Target((given.group().equals("/") ? "" : given.group()) + "/" + given.file(), null) : given;
        if (t.file() != null) {
            // the file is looked up first, as GET finds it (404 for a missing group or a file this scenario lacks):
            // rmdir of a path that does not exist is ENOENT in the kernel too
            return jdbc.call(() -> locate(id, path)).then(Mono.error(ApiException.of(HttpStatus.METHOD_NOT_ALLOWED,
                    "Not a directory", "/path", t.file() + " is a file; only groups can be removed", "ENOTDIR")
                    .header(HttpHeaders.ALLOW, FILE_ALLOW)));
        }
        return scenarios.editFile(id, new Preconditions(ifMatch, ifNoneMatch), (doc, s) -> {
            String g = t.group();
            if (g.equals("/")) throw ApiException.of(HttpStatus.CONFLICT, "Busy", "/path", "the root cannot be removed", "EBUSY");
            if (find(s, g) == null) throw enoent(g);
            List<String> children = children(s, g);
            if (!children.isEmpty()) {
                throw ApiException.of(HttpStatus.CONFLICT, "Busy", "/path",
                        g + " has child groups " + children.subList(0, Math.min(5, children.size())), "EBUSY");
            }
            List<String> tasks = tasksIn(s, g);
            if (!tasks.isEmpty()) {
                throw ApiException.of(HttpStatus.CONFLICT, "Busy", "/path", g + " has tasks " + tasks, "EBUSY");
            }
            int named = timelineNaming(doc, g);
            if (named >= 0) {
                throw ApiException.of(HttpStatus.CONFLICT, "Busy", "/path", g + " is named by /timeline/" + named
                        + " (a write, move or rmdir at its time needs the group); remove or change that entry first", "EBUSY");
            }
            ArrayNode cgroups = doc.get("cgroups") instanceof ArrayNode a ? a : null;
            boolean removed = false;
            for (int i = cgroups == null ? -1 : cgroups.size() - 1; i >= 0; i--) {
                if (g.equals(cgroups.get(i).path("path").asString(""))) {
                    cgroups.remove(i);
                    removed = true;
                }
            }
            if (!removed) {
                throw ApiException.of(HttpStatus.CONFLICT, "Busy", "/path",
                        g + " is made by a generate entry; remove or change that entry", "EBUSY");
            }
            String parent = parentOf(g);
            if (!parent.equals("/") && indexOf(doc, parent) < 0) {
                cgroups.addObject().put("path", parent); // rmdir of a child leaves the mkdir -p parent
            }
            return ResponseEntity.noContent().<Void>build();
        });
    }

    @Operation(summary = "Append a generate entry (the seeds' nested loops); 422 if the tree would be too large")
    @ApiResponse(responseCode = "201", description = "appended; the tree after it", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "CgroupGroup"))))
    @Problems({404, 409, 412, 422})
    @PostMapping(path = "/cgroups:generate", consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<List<Map<String, Object>>>> generate(@PathVariable String id,
                                                                   @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "GenerateEntry")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "GenerateEntry"))}) @RequestBody(required = false) String body,
                                                                   org.springframework.http.server.reactive.ServerHttpRequest request,
                                                                   @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        ScenarioDocs.Body read;
        try {
            read = ScenarioDocs.read(body, request.getHeaders().getContentType());
        } catch (ApiException e) {
            return Mono.error(e);
        }
        return scenarios.edit(id, new Preconditions(ifMatch, ifNoneMatch), (doc, s) -> {
            ObjectNode entry = read.object(); // its content's 422 after the 404, 409 and 412 (ScenarioDocs.Body)
            ArrayNode gens = doc.get("generate") instanceof ArrayNode a ? a : doc.putArray("generate");
            gens.add(entry.deepCopy());
            return ResponseEntity.status(HttpStatus.CREATED).<Void>build();
        }).flatMap(done -> jdbc.call(() -> ResponseEntity.status(HttpStatus.CREATED).eTag(done.getHeaders().getETag())
                .location(Locations.api("scenarios", id, "cgroups")).body(treeOf(id, null))));
    }

    private Mono<ResponseEntity<Object>> mkdir(String id, Preconditions pre, String group) {
        return scenarios.editFile(id, pre, (doc, s) -> {
            // the name is checked once the scenario is known to exist and be writable: 404, then 409, then 422, as
            // every other write (docs/api.md, "Order of checks")
            checkPath(group);
            if (CgroupFiles.Rules.of(s.kernel()).cgroupVersion() == 1) {
                for (String seg : group.substring(1).split("/")) {
                    if (V1_FILE_NAMES.contains(seg)) {
                        throw ApiException.of(HttpStatus.CONFLICT, "File exists", "/path", "'" + seg + "' in " + group
                                + " is the name of a cgroup v1 file (tasks, notify_on_release, release_agent)", "EEXIST");
                    }
                }
            }
            if (group.equals("/") || find(s, group) != null) {
                return ResponseEntity.ok().<Object>body(new Mkdir(group, false));
            }
            ArrayNode cgroups = doc.get("cgroups") instanceof ArrayNode a ? a : doc.putArray("cgroups");
            cgroups.addObject().put("path", group);
            return ResponseEntity.created(URI.create(Locations.api("scenarios", id, "cgroups") + Locations.groupPath(group)))
                    .<Object>body(new Mkdir(group, true));
        });
    }

    /**
     * {@code echo value > group/file} for the scenario's cgroup version and kernel: the kernel's parsing and checks
     * ({@link CgroupFiles#write}, with cgroup v1's over the whole tree); the files are stored as they read back.
     */
    private Mono<ResponseEntity<Object>> writeFile(String id, Preconditions pre, Target t, byte[] value) {
        return scenarios.editFile(id, pre, (doc, s) -> {
            CgroupFiles.Rules rules = CgroupFiles.Rules.of(s.kernel());
            CgroupSpec c = t.group().equals("/") ? CgroupFiles.newGroupV1("/") : find(s, t.group());
            if (c == null) throw enoent(t.group()); // the path's directory first, as open() walks it
            String whole = (t.group().equals("/") ? "" : t.group()) + "/" + t.file();
            // echo x > /sys/fs/cgroup/a for an existing group a: EISDIR as for the root (breaker 7 N3: it said /a
            // "does not exist"); a group is never named as a file (mkdir refuses those names), so this is no file
            if (find(s, whole) != null) throw eisdir(whole);
            if (firstFileDecides(rules, t.file(), doc)) {
                rules = rules.withCgroupVersion(1); // every group is at its defaults: v1's are taken
                c = CgroupFiles.newGroupV1(c.path());
            }
            checkFileHere(t, rules);
            if (t.slashAfterFile()) throw enotdir(t);
            int i = indexOf(doc, t.group());
            ArrayNode cgroups = doc.get("cgroups") instanceof ArrayNode a ? a : doc.putArray("cgroups");
            CgroupSpec updated;
            try {
                updated = CgroupFiles.write(c, t.file(), value, rules, hierarchyOf(s)); // the kernel's parsing and checks
            } catch (InvalidValueException e) {
                String pointer = t.group().equals("/") ? "/path"
                        : "/cgroups/" + (i >= 0 ? i : cgroups.size()) + "/" + t.file();
                throw ApiException.of(ProblemHandler.statusOf(List.of(new FieldProblem(pointer, e.reason(), e.errno()))),
                        "Invalid write", pointer, "echo '" + CgroupFiles.shown(value) + "' > " + (t.group().equals("/") ? "" : t.group())
                                + "/" + t.file() + ": " + e.reason(), e.errno());
            }
            ObjectNode entry = i >= 0 ? (ObjectNode) cgroups.get(i) : cgroups.addObject().put("path", t.group());
            switch (t.file()) {
                case CgroupFiles.CPU_MAX -> entry.put(CgroupFiles.CPU_MAX, updated.cpuMax().toString());
                case CgroupFiles.CPU_MAX_BURST -> entry.put(CgroupFiles.CPU_MAX_BURST, Long.toString(updated.cpuMaxBurstUs()));
                case CgroupFiles.CPU_WEIGHT -> entry.put(CgroupFiles.CPU_WEIGHT, updated.cpuWeight());
                case CgroupFiles.SHARES -> entry.put(CgroupFiles.SHARES, updated.cpuShares());
                case CgroupFiles.RT_RUNTIME_US, CgroupFiles.RT_PERIOD_US -> {
                    // stored period first, then runtime, the order that passes the checks for the state reached
                    entry.remove(CgroupFiles.RT_RUNTIME_US);
                    entry.put(CgroupFiles.RT_PERIOD_US, updated.rtPeriodUs());
                    entry.put(CgroupFiles.RT_RUNTIME_US, updated.rtRuntimeUs());
                }
                default -> { // cpu.cfs_quota_us, cpu.cfs_period_us, cpu.cfs_burst_us: the bandwidth as it reads back
                    entry.remove(CgroupFiles.CFS_QUOTA_US);
                    entry.remove(CgroupFiles.CFS_BURST_US);
                    entry.put(CgroupFiles.CFS_PERIOD_US, Long.parseLong(CgroupFiles.read(updated, CgroupFiles.CFS_PERIOD_US)));
                    entry.put(CgroupFiles.CFS_QUOTA_US, Long.parseLong(CgroupFiles.read(updated, CgroupFiles.CFS_QUOTA_US)));
                    if (updated.cpuMaxBurstUs() != 0) entry.put(CgroupFiles.CFS_BURST_US, updated.cpuMaxBurstUs());
                }
            }
            return ResponseEntity.noContent().build();
        });
    }

    /**
     * Whether {@code file} is a cgroup v1 file of a scenario that writes no cgroup file yet: such a scenario is v2
     * only by default, so its first file decides, as the first file of a document does (a user of a v1 host makes
     * the tree with mkdir, then writes {@code cpu.cfs_quota_us}); until then v1's files read as v1's defaults, so
     * that GET and PUT of one name agree.
     */
    private static boolean firstFileDecides(CgroupFiles.Rules rules, String file, JsonNode doc) {
        return rules.cgroupVersion() == 2 && CgroupFiles.versionOf(file) == 1 && ScenarioParser.declaredCgroupVersion(doc) == 0;
    }

    /**
     * A file this scenario's groups have: its cgroup version's, on its kernel (the burst files from 5.14, the RT
     * files with RT group scheduling); cgroup v2's root has none ({@code CFTYPE_NOT_ON_ROOT}). 404 {@code ENOENT}
     * otherwise, as the kernel's directory has no such file.
     */
    /** 422 {@code EISDIR} at {@code /path}: a text/plain PUT (a write) to the group {@code group}, a directory. */
    private static ApiException eisdir(String group) {
        return ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Is a directory", "/path",
                (group.equals("/") ? "the cgroup root" : "the group " + group) + " is a directory: a text/plain PUT"
                        + " writes a file (…/cgroups/<group>/<file>), and a mkdir is a PUT without a text/plain body", "EISDIR");
    }

    /** 404 {@code ENOTDIR} at {@code /path}: a cgroup file's path with a slash after it, as open() answers it. */
    private static ApiException enotdir(Target t) {
        return ApiException.of(HttpStatus.NOT_FOUND, "Not a directory", "/path", (t.group().equals("/") ? "" : t.group())
                + "/" + t.file() + " is a file, and a path with a slash after it names a directory; drop the slash", "ENOTDIR");
    }

    private static void checkFileHere(Target t, CgroupFiles.Rules rules) {
        try {
            CgroupFiles.checkFile(t.file(), rules);
        } catch (InvalidValueException e) {
            String why = CgroupFiles.versionOf(t.file()) != 0 ? e.reason() : CgroupFiles.notModelled(t.file(), rules);
            if (why == null) {
                why = "no file " + t.file() + " in a cgroup; a write cannot create one in cgroupfs (mkdir is a PUT"
                        + " without a text/plain body)";
            }
            throw ApiException.notFound("file " + (t.group().equals("/") ? "" : t.group()) + "/" + t.file() + " ("
                    + why + ")", "/path");
        }
        if (t.group().equals("/") && rules.cgroupVersion() == 2) {
            throw ApiException.notFound("file /" + t.file() + " (the root has no " + t.file() + " on cgroup v2)", "/path");
        }
    }

    /** The scenario's groups as the kernel's checks walk them (cgroup v1's hierarchy, RT bandwidth sums). */
    private static CgroupFiles.Hierarchy hierarchyOf(Scenario s) {
        Map<String, CgroupSpec> groups = new LinkedHashMap<>();
        for (CgroupSpec c : s.cgroups()) groups.put(c.path(), c);
        return new CgroupFiles.Hierarchy() {
            @Override public CgroupSpec state(String path) { return groups.get(path); }
            @Override public List<String> children(String path) { return CgroupController.children(s, path); }
            @Override public boolean hasRtTasks(String path) {
                for (TaskSpec t : s.tasks()) if (t.policy().realtime() && t.cgroups().contains(path)) return true;
                return false;
            }
        };
    }

    /** A group path and, if the last segment names a file, that file. */
    record Target(String group, String file, boolean slashAfterFile) {
        Target(String group, String file) { this(group, file, false); }

        /**
         * The last segment names a file when it is one this API models or any {@code cpu.*} / {@code cgroup.*} name
         * (never a group's: those names are the kernel's files, {@code EEXIST} on mkdir); read or written alike.
         */
        static Target of(String raw) {
            String p = raw == null || raw.isEmpty() ? "/" : raw;
            if (p.length() > 1 && p.endsWith("/")) p = p.substring(0, p.length() - 1);
            int slash = p.lastIndexOf('/');
            String last = p.substring(slash + 1);
            if (FILES.contains(last) || last.startsWith("cpu.") || last.startsWith("cgroup.")) {
                return new Target(slash == 0 ? "/" : p.substring(0, slash), last, p.length() < raw.length());
            }
            return new Target(p, null);
        }

        /** The last segment of a group target. */
        String last() { return group.substring(group.lastIndexOf('/') + 1); }

        /** A group target read as a file in its parent (e.g. cgroup v1's {@code tasks}). */
        Target asFile() {
            int slash = group.lastIndexOf('/');
            return new Target(slash <= 0 ? "/" : group.substring(0, slash), group.substring(slash + 1));
        }
    }

    /** cgroup v1's files of other names than cgroup.* / cpu.*: a group of such a name cannot exist there (EEXIST). */
    static final Set<String> V1_FILE_NAMES = CgroupFiles.V1_OTHER_FILES;

    /**
     * The index of the first timeline entry that needs group {@code g} to exist at its time: a write to one of its
     * files, a move into it, or its rmdir; -1 if none. Removing the group would turn the stored scenario into one
     * that no longer parses, so the rmdir is refused instead (409 EBUSY), as the kernel refuses to remove a busy
     * directory.
     */
    static int timelineNaming(JsonNode doc, String g) {
        JsonNode timeline = doc.get("timeline");
        if (timeline == null || !timeline.isArray()) return -1;
        for (int i = 0; i < timeline.size(); i++) {
            if (TimelineRefs.namingGroup(timeline.get(i), g) != null) return i;
        }
        return -1;
    }

    /** Longest group name, bytes: the kernel's NAME_MAX. */
    static final int NAME_MAX = 255;

    /**
     * The scenario parser's rules for a mkdir: names of {@code [A-Za-z0-9_.-]}, not {@code .} or {@code ..}
     * (422 {@code EINVAL}, like every other name that does not validate); at most {@value #NAME_MAX} bytes (422
     * {@code ENAMETOOLONG}); not a cgroup file's
     * name, {@code cgroup.*} or {@code cpu.*} (409 {@code EEXIST}: the directory holds a file of that name).
     */
    private static void checkPath(String group) {
        if (group.equals("/")) return;
        String[] segs = group.substring(1).split("/", -1);
        for (String seg : segs) {
            if (seg.isEmpty() || seg.equals(".") || seg.equals("..") || !SEGMENT.matcher(seg).matches()) {
                throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid cgroup name", "/path",
                        "invalid group name '" + seg + "' in " + group + " (letters, digits, _ . -; not . or ..)", "EINVAL");
            }
            if (seg.length() > NAME_MAX) {
                throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Name too long", "/path",
                        "group name '" + seg.substring(0, 16) + "...' is " + seg.length() + " bytes; the limit is "
                                + NAME_MAX + " (NAME_MAX)", "ENAMETOOLONG");
            }
            if (seg.startsWith("cpu.") || seg.startsWith("cgroup.")) {
                throw ApiException.of(HttpStatus.CONFLICT, "File exists", "/path",
                        "'" + seg + "' in " + group + " is the name of a cgroup file (cgroup.*, cpu.*)", "EEXIST");
            }
        }
    }

    private static ApiException enoent(String group) {
        return ApiException.notFound("cgroup " + group, "/path");
    }

    static CgroupSpec find(Scenario s, String path) {
        for (CgroupSpec c : s.cgroups()) if (c.path().equals(path)) return c;
        return null;
    }

    private static int indexOf(ObjectNode doc, String path) {
        if (!(doc.get("cgroups") instanceof ArrayNode a)) return -1;
        for (int i = 0; i < a.size(); i++) if (path.equals(a.get(i).path("path").asString(""))) return i;
        return -1;
    }

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    private static List<String> children(Scenario s, String path) {
        List<String> out = new ArrayList<>();
        for (CgroupSpec c : s.cgroups()) if (!c.path().equals("/") && parentOf(c.path()).equals(path)) out.add(c.path());
        return out;
    }

    private static List<String> tasksIn(Scenario s, String path) {
        List<String> out = new ArrayList<>();
        for (TaskSpec t : s.tasks()) if (t.cgroups().contains(path)) out.add(t.name());
        return out;
    }

    /** A file as the kernel prints it (without the line end). */
    static String fileValue(CgroupSpec c, String file) {
        return switch (file) {
            case CgroupFiles.CPU_WEIGHT -> Integer.toString(c.cpuWeight());
            case CgroupFiles.SHARES -> Long.toString(c.cpuShares());
            case CgroupFiles.RT_RUNTIME_US -> Long.toString(c.rtRuntimeUs());
            case CgroupFiles.RT_PERIOD_US -> Long.toString(c.rtPeriodUs());
            default -> CgroupFiles.read(c, file); // the bandwidth files of either version
        };
    }

    private static Map<String, Object> groupView(Scenario s, String path, CgroupSpec c, List<String> children,
                                                 List<String> tasks) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", path);
        m.put("parent", path.equals("/") ? null : parentOf(path));
        m.put("children", children);
        m.put("tasks", tasks);
        if (c != null) {
            Map<String, String> files = new LinkedHashMap<>();
            for (String f : CgroupFiles.files(CgroupFiles.Rules.of(s.kernel()))) files.put(f, fileValue(c, f));
            m.put("files", files);
        }
        return m;
    }

    /** The answer of mkdir: the group's path, and whether it was created (false: it existed). Fields in this order. */
    record Mkdir(String path, boolean created) { }
}
