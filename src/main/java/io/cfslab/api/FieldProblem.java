package io.cfslab.api;

/**
 * One entry of a problem body's {@code errors}.
 *
 * @param pointer JSON pointer (RFC 6901) to the offending value in the request body (or in the stored
 *                scenario document, for cgroupfs-style writes), or {@code "/"} + the parameter name
 * @param reason  what is wrong
 * @param errno   the errno the kernel gives for the same write ({@code EINVAL}, {@code ERANGE},
 *                {@code EBUSY}, {@code ENOENT}, {@code EEXIST}), or null
 */
public record FieldProblem(String pointer, String reason, String errno) {
}
