package io.cfslab.api;

import com.fasterxml.jackson.core.type.TypeReference;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document at {@code /v3/api-docs}, made true to what the service answers. Conventions, for every
 * controller under {@code /api}:
 * <ul>
 *   <li>success answers: springdoc's {@code @ApiResponse} with the body's schema by component name
 *       ({@code @Schema(ref = "Run")}) and its media type;</li>
 *   <li>refusals: {@link Problems} on the handler method lists the statuses it answers besides {@link #COMMON}
 *       (which every operation may answer: malformed requests, token, limits), each documented here as an
 *       {@code application/problem+json} {@code Problem};</li>
 *   <li>schemas: the components of {@code openapi/components.json} (JSON Schema 2020-12, OpenAPI 3.1); the
 *       scenario's own schema is the published file {@code /schemas/scenario.json} (components {@code Scenario},
 *       {@code Task}, {@code TimelineAction}, {@code GenerateEntry} refer to it).</li>
 * </ul>
 * {@code OpenApiContractTest} and {@code ApiFuzzTest} read the document and check every operation in it.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocs {
    /** Statuses every {@code /api} operation may answer (all as problems). */
    public static final List<Integer> COMMON = List.of(400, 401, 406, 413, 414, 431, 505);

    /** Standard descriptions of the refusals. */
    static final Map<Integer, String> DESCRIPTIONS = Map.ofEntries(
            Map.entry(400, "Malformed request: JSON syntax, a duplicate key, invalid UTF-8, a path segment or query "
                    + "parameter of the wrong type, a ';', an encoded '.', NUL or line end in the path (EINVAL)"),
            Map.entry(401, "No or wrong token: only when the service has one (cfslab.security.token); "
                    + "WWW-Authenticate: Bearer"),
            Map.entry(403, "A signed-in browser's write without its CSRF token"),
            Map.entry(404, "No such resource (ENOENT); also a scenario whose problem's errno is ENOENT"),
            Map.entry(405, "Method not allowed here; Allow lists the methods"),
            Map.entry(406, "The Accept header excludes every media type this operation answers with"),
            Map.entry(409, "Busy, exists, read-only, finished or changed by concurrent writes (EBUSY, EEXIST, EPERM)"),
            Map.entry(412, "If-Match names another version, or If-None-Match the current one (If-None-Match: * on a write that changes an existing resource)"),
            Map.entry(413, "Body over the limit (spring.http.codecs.max-in-memory-size, 4 MB) (EFBIG)"),
            Map.entry(414, "Request target (path and query) over 4096 bytes (ENAMETOOLONG)"),
            Map.entry(415, "Wrong Content-Type"),
            Map.entry(422, "The scenario or write is refused by the kernel's rules or the limits (EINVAL, ERANGE, "
                    + "ENAMETOOLONG, ...); errors lists every problem with its JSON pointer"),
            Map.entry(429, "Busy: two writes with bodies over 256 KB (or chunked) are being handled (Retry-After: 1), or, "
                    + "for runs, too many queued (cfslab.runs.queue.max, max-per-client; Retry-After: 30) (EAGAIN)"),
            Map.entry(431, "Request header fields over 16 KB (E2BIG)"),
            Map.entry(505, "An HTTP version of another major version than 1 (HTTP/2.0, HTTP/9.9 in an HTTP/1 request"
                    + " line); the problem names HTTP/1.1 and the connection closes (HttpVersions)"));

    static final String PROBLEM_JSON = "application/problem+json";

    /** The document's description: what the service is, in one paragraph. */
    static final String DESCRIPTION = "cfslab simulates Linux CFS bandwidth control (cgroup v2 cpu.max, cpu.max.burst, "
            + "cpu.weight; throttling and unthrottling, per-cfs_rq or task-based, sync or async) on machines you do not "
            + "have. Build a scenario's cgroup tree as cgroupfs does (mkdir, echo into cpu.max), run it on the worker "
            + "queue, then read each group's cpu.stat and the distribute_cfs_runtime() duration histogram as bpftrace "
            + "prints it, or watch the run live over Server-Sent Events. Every refusal is an RFC 9457 problem naming the "
            + "field and, where the kernel would refuse the same write, its errno. When the service has a token, every "
            // a code span: Swagger UI renders this text as Markdown, where a bare <token> is an HTML tag and vanishes
            + "operation needs `Authorization: Bearer <token>`.";

    /**
     * The document's one server is relative ({@code /}): clients resolve it against the URL they fetched the
     * document from, so it stays right behind a proxy, on another port or host, where springdoc's generated
     * absolute URL (the request's own host as the service saw it) would point elsewhere.
     */
    @Bean
    OpenAPI cfslabOpenApiBase() {
        return new OpenAPI().servers(List.of(new io.swagger.v3.oas.models.servers.Server().url("/")
                .description("this service: relative to the document's own URL")));
    }

    @Bean
    OpenApiCustomizer cfslabOpenApi(@Value("${cfslab.version:dev}") String version) {
        Map<String, Schema> components = components();
        return openApi -> {
            openApi.info(new Info().title("CFS Bandwidth Lab (cfslab)").version(version).description(DESCRIPTION)
                    .license(new License().name("see the repository")));
            if (openApi.getComponents() == null) openApi.components(new Components());
            Components c = openApi.getComponents();
            if (c.getSchemas() != null) c.getSchemas().remove("JsonNode"); // springdoc's view of untyped bodies
            components.forEach(c::addSchemas);
            c.addSecuritySchemes("token", new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                    .description("cfslab.security.token, when the service has one"));
            CgroupDocs.splitFileForm(openApi);
            everyMethodThatAnswers(openApi);
            openApi.getPaths().forEach((path, item) -> {
                if (!path.startsWith("/api/")) return;
                for (Map.Entry<PathItem.HttpMethod, Operation> e : item.readOperationsMap().entrySet()) {
                    Operation op = e.getValue();
                    if (op.getParameters() != null) op.getParameters().removeIf(p -> "header".equals(p.getIn())
                            && List.of("accept", "content-type", "authorization").contains(p.getName().toLowerCase()));
                    for (int status : COMMON) addProblem(op, status, null);
                    if (op.getRequestBody() != null) addProblem(op, 415, null);
                    if (List.of(PathItem.HttpMethod.POST, PathItem.HttpMethod.PUT, PathItem.HttpMethod.PATCH)
                            .contains(e.getKey())) {
                        addProblem(op, 429, null); // LargeBodyGate's bound on large bodies read at once
                    }
                    op.setSecurity(List.of(new SecurityRequirement(), new SecurityRequirement().addList("token")));
                    sortResponses(op);
                }
            });
        };
    }

    /**
     * The document lists exactly the methods each path answers, as its {@code Allow} does ({@link ResourceMethods}):
     * {@code HEAD} wherever {@code GET} is (the same answer without its body), {@code OPTIONS} on every path, and no
     * {@code DELETE} on a cgroup file (a file cannot be removed; its DELETE is refused as the path's 405/404, which
     * the document listed as if it were an operation). Breaker 9 F11: no path had HEAD, only the cgroup paths
     * OPTIONS, and the file path a DELETE that {@code Allow} left out.
     */
    static void everyMethodThatAnswers(OpenAPI openApi) {
        if (openApi.getPaths() == null) return;
        PathItem file = openApi.getPaths().get(CgroupDocs.FILE);
        if (file != null) file.setDelete(null);
        openApi.getPaths().forEach((path, item) -> {
            if (!path.startsWith("/api/")) return;
            Operation get = item.getGet();
            if (get != null && item.getHead() == null) {
                ApiResponses responses = new ApiResponses();
                if (get.getResponses() != null) {
                    // a success has no body; a refusal's Content-Type is still the problem's (its body left out)
                    get.getResponses().forEach((code, r) -> responses.addApiResponse(code, code.startsWith("2")
                            ? new ApiResponse().description(r.getDescription()).headers(r.getHeaders()) : r));
                }
                item.setHead(new Operation().operationId(get.getOperationId() + "Head").tags(get.getTags())
                        .summary("the headers GET answers, without its body").parameters(get.getParameters())
                        .responses(responses));
            }
            if (item.getOptions() == null) {
                List<io.swagger.v3.oas.models.parameters.Parameter> pathParameters = get == null || get.getParameters() == null
                        ? null : get.getParameters().stream().filter(p -> "path".equals(p.getIn())).toList();
                if (pathParameters == null) {
                    Operation any = item.readOperations().isEmpty() ? null : item.readOperations().get(0);
                    pathParameters = any == null || any.getParameters() == null ? null
                            : any.getParameters().stream().filter(p -> "path".equals(p.getIn())).toList();
                }
                String id = path.replaceAll("[^A-Za-z0-9]+", " ").strip().replace(' ', '_');
                item.setOptions(new Operation().operationId("options_" + id).tags(get == null ? null : get.getTags())
                        .summary("the methods this path allows").parameters(pathParameters == null || pathParameters.isEmpty()
                                ? null : new java.util.ArrayList<>(pathParameters))
                        .responses(optionsResponses(item)));
            }
        });
    }

    /** An OPTIONS's answers: 200 with Allow, and the 404 of a missing resource where the path's operations have one. */
    private static ApiResponses optionsResponses(PathItem item) {
        ApiResponses out = new ApiResponses().addApiResponse("200", new ApiResponse().description("Allow lists them")
                .addHeaderObject("Allow", new Header().schema(new io.swagger.v3.oas.models.media.StringSchema())));
        for (Operation op : item.readOperations()) {
            if (op.getResponses() != null && op.getResponses().get("404") != null) {
                out.addApiResponse("404", op.getResponses().get("404"));
                break;
            }
        }
        return out;
    }

    /** Adds the refusals of {@link Problems} on a handler method. */
    @Bean
    OperationCustomizer cfslabProblems() {
        return (operation, handler) -> {
            Problems problems = handler.getMethodAnnotation(Problems.class);
            if (problems == null) return operation;
            Map<Integer, String> notes = new LinkedHashMap<>();
            for (String n : problems.notes()) {
                int colon = n.indexOf(':');
                notes.put(Integer.parseInt(n.substring(0, colon).strip()), n.substring(colon + 1).strip());
            }
            for (int status : problems.value()) addProblem(operation, status, notes.get(status));
            return operation;
        };
    }

    /** Documents a problem answer of {@code status} (kept if already there). */
    static void addProblem(Operation op, int status, String description) {
        if (op.getResponses() == null) op.setResponses(new ApiResponses());
        String code = Integer.toString(status);
        if (op.getResponses().containsKey(code)) return;
        ApiResponse r = new ApiResponse().description(description != null ? description
                : DESCRIPTIONS.getOrDefault(status, "Refused")).content(problemContent());
        if (status == 429) r.addHeaderObject("Retry-After", new Header().description("seconds to wait")
                .schema(new io.swagger.v3.oas.models.media.IntegerSchema()));
        if (status == 401) r.addHeaderObject("WWW-Authenticate", new Header().schema(new io.swagger.v3.oas.models.media.StringSchema()));
        if (status == 405) r.addHeaderObject("Allow", new Header().schema(new io.swagger.v3.oas.models.media.StringSchema()));
        op.getResponses().addApiResponse(code, r);
    }

    static Content problemContent() {
        return new Content().addMediaType(PROBLEM_JSON, new MediaType().schema(ref("Problem")));
    }

    /** A reference to a component schema. */
    static Schema<Object> ref(String component) {
        return new Schema<>().$ref("#/components/schemas/" + component);
    }

    static Content content(String mediaType, Schema<?> schema) {
        return new Content().addMediaType(mediaType, new MediaType().schema(schema));
    }

    private static void sortResponses(Operation op) {
        ApiResponses sorted = new ApiResponses();
        op.getResponses().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> sorted.addApiResponse(e.getKey(), e.getValue()));
        op.setResponses(sorted);
    }

    /** The component schemas of {@code openapi/components.json}, as swagger-core's OpenAPI 3.1 model. */
    @SuppressWarnings("rawtypes")
    static Map<String, Schema> components() {
        try (InputStream in = ApiDocs.class.getResourceAsStream("/openapi/components.json")) {
            return Json31.mapper().readValue(in, new TypeReference<LinkedHashMap<String, Schema>>() { });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read openapi/components.json", e);
        }
    }

    /** A path parameter. */
    static Parameter pathParameter(String name, String description, Schema<?> schema) {
        return new Parameter().in("path").name(name).required(true).description(description).schema(schema);
    }

    /** A request body of one media type. */
    static RequestBody body(String mediaType, Schema<?> schema, boolean required) {
        return new RequestBody().required(required).content(content(mediaType, schema));
    }

    static List<Parameter> copy(List<Parameter> ps) { return ps == null ? new ArrayList<>() : new ArrayList<>(ps); }
}
