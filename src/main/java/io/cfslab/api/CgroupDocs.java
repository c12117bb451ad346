package io.cfslab.api;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.List;

/**
 * {@link CgroupController} serves groups and their files on one route ({@code /cgroups/{*path}}: the last
 * segment decides); the document shows the two forms apart, as a user of cgroupfs sees them:
 * {@code …/cgroups/{path}} (a group: GET JSON, PUT mkdir -p, DELETE rmdir) and {@code …/cgroups/{path}/{file}}
 * (a file: GET/PUT {@code text/plain}; DELETE is 405). {@code path} holds the group's levels separated by
 * {@code /} (or {@code %2F}).
 */
final class CgroupDocs {
    static final String GROUP = "/api/scenarios/{id}/cgroups/{path}";
    static final String FILE = "/api/scenarios/{id}/cgroups/{path}/{file}";

    private CgroupDocs() {}

    static final String ROOT = "/api/scenarios/{id}/cgroups";

    /**
     * The root's own operations: {@code {*path}} matches an empty path too, so {@code …/cgroups} answers PUT, DELETE
     * and OPTIONS besides the tree's GET (breaker 8 F7: the document listed only the GET).
     */
    private static void documentRoot(OpenAPI openApi, Parameter id) {
        PathItem root = openApi.getPaths().get(ROOT);
        if (root == null) return;
        Schema<Object> mkdir = ApiDocs.ref("MkdirResult");
        Operation put = new Operation().operationId("mkdirCgroupRoot").addTagsItem("cgroup-controller")
                .summary("mkdir -p of the root, which exists: 200 {\"path\":\"/\",\"created\":false}; a text/plain body "
                        + "is a write to a directory (422 EISDIR)").parameters(new java.util.ArrayList<>(List.of(id)))
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("the root exists")
                        .content(ApiDocs.content("application/json", mkdir))));
        ApiDocs.addProblem(put, 404, "No such scenario (ENOENT)");
        ApiDocs.addProblem(put, 409, "A ready-made scenario (EPERM)");
        ApiDocs.addProblem(put, 412, null);
        ApiDocs.addProblem(put, 415, "A body that is not text/plain (a mkdir takes none: EINVAL)");
        ApiDocs.addProblem(put, 422, "A text/plain body: the root is a directory (EISDIR)");
        Operation delete = new Operation().operationId("rmdirCgroupRoot").addTagsItem("cgroup-controller")
                .summary("rmdir of the root: refused, 409 EBUSY").parameters(new java.util.ArrayList<>(List.of(id)))
                .responses(new ApiResponses());
        ApiDocs.addProblem(delete, 404, "No such scenario (ENOENT)");
        ApiDocs.addProblem(delete, 409, "The root cannot be removed (EBUSY), or a ready-made scenario (EPERM)");
        ApiDocs.addProblem(delete, 412, null);
        Operation options = new Operation().operationId("optionsCgroupRoot").addTagsItem("cgroup-controller")
                .summary("the methods the root allows").parameters(new java.util.ArrayList<>(List.of(id)))
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("Allow lists them")
                        .addHeaderObject("Allow", new Header().schema(new StringSchema()))));
        ApiDocs.addProblem(options, 404, "No such scenario (ENOENT)");
        root.put(put).delete(delete).options(options);
    }

    static void splitFileForm(OpenAPI openApi) {
        PathItem group = openApi.getPaths().get(GROUP);
        if (group == null) return;
        Parameter id = ApiDocs.pathParameter("id", "scenario id", new StringSchema());
        Parameter groupPath = ApiDocs.pathParameter("path", "the group's path below the root, levels separated by / "
                + "(e.g. web/frontend); names of [A-Za-z0-9_.-]; not ending in a file name (that is the {path}/{file} form)",
                new StringSchema().pattern("^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$")
                        .not(new StringSchema().pattern("(^|/)(cpu\\.max|cpu\\.max\\.burst|cpu\\.weight)$")));
        for (Operation op : group.readOperations()) {
            op.setParameters(new java.util.ArrayList<>(List.of(id, groupPath)));
        }
        if (group.getPut() != null) {
            group.getPut().setRequestBody(null); // mkdir takes no body ...
            ApiDocs.addProblem(group.getPut(), 415, "A body that is not text/plain (a mkdir takes none: EINVAL), or a"
                    + " Content-Type that does not parse"); // ... and refuses one
        }
        documentRoot(openApi, id);

        Parameter file = ApiDocs.pathParameter("file", "a cgroup file", new StringSchema()
                ._enum(List.copyOf(CgroupController.FILES.stream().sorted().toList())));
        List<Parameter> params = List.of(id, groupPath, file); // copied into each operation below
        Schema<String> text = new StringSchema();

        Operation get = new Operation().operationId("readCgroupFile").addTagsItem("cgroup-controller")
                .summary("cat a file: its value as the kernel prints it, with a newline").parameters(new java.util.ArrayList<>(params))
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("the value")
                        .content(ApiDocs.content("text/plain", text))));
        ApiDocs.addProblem(get, 404, "No such group or file (ENOENT)");
        Operation put = new Operation().operationId("writeCgroupFile").addTagsItem("cgroup-controller")
                .summary("echo a value into a file (cpu.max: \"$MAX $PERIOD\" in us, a period left out is kept; "
                        + "cpu.max.burst: us; cpu.weight: 1..10000; in a cgroup v1 scenario v1's files: cpu.cfs_quota_us "
                        + "(-1: no limit), cpu.cfs_period_us, cpu.cfs_burst_us, cpu.shares, cpu.rt_runtime_us, "
                        + "cpu.rt_period_us, each written separately as the kernel takes them)").parameters(new java.util.ArrayList<>(params))
                .requestBody(ApiDocs.body("text/plain", new StringSchema().example("50000 100000"), true))
                .responses(new ApiResponses().addApiResponse("204", new ApiResponse().description("written")));
        ApiDocs.addProblem(put, 404, "No such group, or a file this scenario's cgroup version or kernel does not have (ENOENT)");
        ApiDocs.addProblem(put, 409, "Changed by too many concurrent writes (EBUSY)");
        ApiDocs.addProblem(put, 415, "Not text/plain (EINVAL): write as echo would");
        ApiDocs.addProblem(put, 422, "The kernel refuses the value (EINVAL, ERANGE); pointer names the file in the "
                + "stored document, e.g. /cgroups/2/cpu.max");
        Operation delete = new Operation().operationId("removeCgroupFile").addTagsItem("cgroup-controller")
                .summary("a file cannot be removed").parameters(new java.util.ArrayList<>(params)).responses(new ApiResponses());
        ApiDocs.addProblem(delete, 404, "No such scenario, group, or file in this scenario's cgroup version or kernel"
                + " (ENOENT), as GET answers: looked up before the 405");
        ApiDocs.addProblem(delete, 405, "A file, not a group (ENOTDIR); Allow: GET,HEAD,PUT,OPTIONS");
        Operation options = new Operation().operationId("optionsCgroupFile").addTagsItem("cgroup-controller")
                .summary("the methods a file allows").parameters(new java.util.ArrayList<>(params))
                .responses(new ApiResponses().addApiResponse("200", new ApiResponse().description("Allow lists them")
                        .addHeaderObject("Allow", new Header().schema(new StringSchema()))));
        ApiDocs.addProblem(options, 404, "No such scenario (ENOENT)");
        openApi.getPaths().addPathItem(FILE, new PathItem().get(get).put(put).delete(delete).options(options));
    }
}
