package io.cfslab.api;

import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/**
 * A request the API refuses; rendered as RFC 9457 {@code application/problem+json} by
 * {@link ProblemHandler}.
 *
 * @see FieldProblem
 */
public class ApiException extends RuntimeException {
    private final HttpStatus status;
    private final String title;
    private final List<FieldProblem> problems;
    private final int total;
    private final HttpHeaders headers = new HttpHeaders();

    /**
     * @param status   HTTP status
     * @param title    short summary (the problem's {@code title})
     * @param problems at least one: the offending field(s), reason and errno
     */
    public ApiException(HttpStatus status, String title, List<FieldProblem> problems) {
        this(status, title, problems, problems.size());
    }

    /** @param total how many problems were found: more than {@code problems} if not all were kept */
    public ApiException(HttpStatus status, String title, List<FieldProblem> problems, int total) {
        super(problems.isEmpty() ? title : problems.get(0).reason());
        this.status = status;
        this.title = title;
        this.problems = List.copyOf(problems);
        this.total = Math.max(total, problems.size());
    }

    /** One problem at one field. */
    public static ApiException of(HttpStatus status, String title, String pointer, String reason, String errno) {
        return new ApiException(status, title, List.of(new FieldProblem(pointer, reason, errno)));
    }

    public static ApiException notFound(String what, String pointer) {
        return of(HttpStatus.NOT_FOUND, "Not found", pointer, what + " does not exist", "ENOENT");
    }

    public HttpStatus status() { return status; }

    public String title() { return title; }

    public List<FieldProblem> problems() { return problems; }

    /** Adds a header to the answer (e.g. {@code Allow} of a 405). @return this */
    public ApiException header(String name, String value) {
        headers.add(name, value);
        return this;
    }

    /** @return headers of the answer besides the problem's */
    public HttpHeaders headers() { return headers; }

    /** @return how many problems were found, including those not kept */
    public int total() { return total; }
}
