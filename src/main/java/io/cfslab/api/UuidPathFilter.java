package io.cfslab.api;

import io.cfslab.scenario.ScenarioText;
import io.cfslab.store.ReadyMadeExperiments;
import io.cfslab.store.ReadyMadeScenarios;
import io.cfslab.store.RunIds;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.UriUtils;
import reactor.core.publisher.Mono;

/**
 * A run, experiment or scenario id in an API path in another form of the same UUID is read as the id it names
 * (RFC 9562 §4: case-insensitive on input): upper case ({@code E8619716-B1EB-…}), without its dashes (32 hex digits),
 * or with white space around it as a paste brings it ({@code %20}), in {@code /api/runs/{id}…},
 * {@code /api/experiments/{id}…} and {@code /api/scenarios/{id}…}. The path is rewritten to the stored form before
 * anything routes it, so every endpoint below answers alike, and the pages' {@code /runs/{id}} trims and resolves the
 * same way ({@link RunIds#canonical}). A shorter hex prefix stays what it was: the API takes full ids only.
 *
 * <p>A ready-made scenario's id ({@code /api/scenarios/{id}…}) and a ready-made experiment's
 * ({@code /api/experiments/ready-made/{id}}) are read by the same rule (breaker 5 F12: the page trimmed
 * {@code %20e1-one-hog-10pct}, the API answered 404): ASCII spaces and tabs around them trimmed, ASCII letters in
 * any case, rewritten to the shipped id when that names one; anything else stays as typed, to be 404.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 4) // after RequestTargetFilter (+2), which refuses malformed percent-encoding
public class UuidPathFilter implements WebFilter {
    private static final Pattern ID_PATH = Pattern.compile("^(/api/(?:runs|experiments|scenarios)/)([^/]+)(.*)$");
    /** The same ids in the pages' paths, where a control character is refused too. */
    private static final Pattern READY_MADE_SCENARIO_PATH = Pattern.compile("^(/api/scenarios/)([^/]+)(.*)$");
    private static final Pattern READY_MADE_EXPERIMENT_PATH = Pattern.compile("^(/api/experiments/ready-made/)([^/]+)(.*)$");
    /** The id segment of every id route: a run's, a scenario's, an experiment's and a ready-made experiment's (breaker 6 F5). */
    private static final Pattern PAGE_ID_PATH = Pattern.compile("^/(?:api/)?(?:runs|scenarios|experiments(?:/ready-made)?)/([^/]+).*$");

    private final ReadyMadeScenarios readyMadeScenarios;
    private final ReadyMadeExperiments readyMadeExperiments;

    public UuidPathFilter(ReadyMadeScenarios readyMadeScenarios, ReadyMadeExperiments readyMadeExperiments) {
        this.readyMadeScenarios = readyMadeScenarios;
        this.readyMadeExperiments = readyMadeExperiments;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String raw = exchange.getRequest().getURI().getRawPath();
        String fault = raw == null ? null : characterFaultIn(raw);
        if (fault != null) {
            return ProblemHandler.write(exchange, org.springframework.http.HttpStatus.BAD_REQUEST, "Rejected request",
                    new FieldProblem("/path", "the id in the path " + fault + ScenarioText.ID_TRIMMED, "EINVAL"));
        }
        String rewritten = raw == null ? null : canonicalPath(raw);
        if (rewritten == null && raw != null) {
            rewritten = readyMadePath(raw, READY_MADE_SCENARIO_PATH, id -> readyMadeScenarios.find(id).isPresent());
        }
        if (rewritten == null && raw != null) {
            rewritten = readyMadePath(raw, READY_MADE_EXPERIMENT_PATH, id -> readyMadeExperiments.find(id).isPresent());
        }
        if (rewritten == null) return chain.filter(exchange);
        return chain.filter(exchange.mutate().request(exchange.getRequest().mutate().path(rewritten).build()).build());
    }

    /**
     * @return why the id segment of {@code rawPath} holds a character no id holds ({@link ScenarioText#idCharacterFault}:
     *         a control character, U+0080..U+009F included, which breaker 5 F5 saw echoed raw in a 404 naming an
     *         existing id; a tab inside it; NBSP, a BOM, U+2028), or null (breaker 4 F8b: U+001F and U+000B were trimmed as white space, LF refused). A line
     *         end is left to Spring Security's firewall, which refuses it (400) as before.
     */
    static String characterFaultIn(String rawPath) {
        Matcher m = PAGE_ID_PATH.matcher(rawPath);
        String segment = m.matches() ? decoded(m.group(1)) : null;
        if (segment == null) return null;
        if (segment.indexOf('\n') >= 0 || segment.indexOf('\r') >= 0) return null;
        return ScenarioText.idCharacterFault(segment);
    }

    /** @return {@code rawPath} with its id in the stored form, or null if it holds none in another form */
    static String canonicalPath(String rawPath) {
        Matcher m = ID_PATH.matcher(rawPath);
        String segment = m.matches() ? decoded(m.group(2)) : null;
        if (segment == null) return null;
        // a line end stays for Spring Security's firewall to refuse (400), in the pages' paths as in these
        if (segment.indexOf('\n') >= 0 || segment.indexOf('\r') >= 0 || !RunIds.isFullId(segment)) return null;
        String id = RunIds.canonical(segment);
        return id.equals(m.group(2)) ? null : m.group(1) + id + m.group(3);
    }

    /** @return {@code rawPath} with the ready-made id it names in its shipped form, or null if it names none otherwise */
    private static String readyMadePath(String rawPath, Pattern pattern, java.util.function.Predicate<String> shipped) {
        Matcher m = pattern.matcher(rawPath);
        String segment = m.matches() ? decoded(m.group(2)) : null;
        if (segment == null || segment.indexOf('\n') >= 0 || segment.indexOf('\r') >= 0) return null;
        String id = RunIds.canonical(segment);
        return id.equals(m.group(2)) || !shipped.test(id) ? null : m.group(1) + id + m.group(3);
    }

    /** A path segment percent-decoded, or null if its encoding is malformed (RequestTargetFilter answers that). */
    private static String decoded(String rawSegment) {
        try {
            return UriUtils.decode(rawSegment, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return null;
        }
    }
}
