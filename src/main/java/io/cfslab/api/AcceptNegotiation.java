package io.cfslab.api;

import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * Which of the media types an operation offers an {@code Accept} header asks for, as HTTP content negotiation
 * (RFC 9110, 12.5.1) means it, with Spring's own parsing and matching ({@link MediaType#parseMediaTypes},
 * {@link MediaType#includes}, q-values): the offered type with the highest q-value of the most specific range that
 * includes it ({@code text/markdown;q=0.9, text/*;q=0.1}); a range with {@code q=0} refuses a type; ties go to the
 * more specific range, then to the range the client listed first, then to the order of {@code offered} (so
 * {@code *}{@code /*} and no header give the first).
 */
final class AcceptNegotiation {
    private AcceptNegotiation() {}

    /**
     * @param accept  the request's {@code Accept} header, or null
     * @param offered the types the operation writes, in its order of preference
     * @return one of {@code offered}
     * @throws ApiException 400 for a malformed header, 406 if it accepts none of them
     */
    static MediaType best(String accept, List<MediaType> offered) {
        if (accept == null || accept.isBlank()) return offered.get(0);
        List<MediaType> ranges;
        try {
            ranges = MediaType.parseMediaTypes(accept);
        } catch (InvalidMediaTypeException e) {
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid header", "/headers/Accept",
                    "Accept \"" + RefusalWords.printable(accept) + "\" is not a list of media types (type/subtype[;q=…],"
                            + " comma-separated)", "EINVAL");
        }
        MediaType best = null;
        double bestQ = 0;
        int bestSpecificity = -1, bestIndex = Integer.MAX_VALUE;
        for (MediaType type : offered) {
            // the most specific range that includes this type decides its q-value
            MediaType match = null;
            for (MediaType r : ranges) {
                if (r.includes(type) && (match == null || specificity(r) > specificity(match))) match = r;
            }
            if (match == null) continue;
            double q = match.getQualityValue();
            int s = specificity(match), index = ranges.indexOf(match);
            if (q > 0 && (q > bestQ || q == bestQ && (s > bestSpecificity || s == bestSpecificity && index < bestIndex))) {
                best = type;
                bestQ = q;
                bestSpecificity = s;
                bestIndex = index;
            }
        }
        if (best == null) {
            throw ApiException.of(HttpStatus.NOT_ACCEPTABLE, "Not acceptable", "/headers/Accept",
                    ProblemHandler.acceptsNoneOf(offered), "EINVAL");
        }
        return best;
    }

    /**
     * What a read operation writes, chosen before it knows whether its resource exists: {@link #best}, or the first
     * offered type when the header takes none of them. The answer is checked against the header when it is written
     * ({@link AcceptChecked}), so an unknown id is still a 404 and a refused type a 406 after it.
     */
    static MediaType choose(String accept, List<MediaType> offered) {
        try {
            return best(accept, offered);
        } catch (ApiException refused) {
            return offered.get(0);
        }
    }

    /** 2 for type/subtype, 1 for type/*, 0 for *}{@code /*}. */
    private static int specificity(MediaType r) {
        return r.isWildcardType() ? 0 : r.isWildcardSubtype() ? 1 : 2;
    }
}
