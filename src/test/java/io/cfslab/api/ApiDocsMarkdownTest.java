package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI description is Markdown to Swagger UI: a bare {@code <token>} there is an HTML tag and vanishes
 * ("needs Authorization: Bearer ." in the browser). Every placeholder in angle brackets must sit in a code span.
 */
class ApiDocsMarkdownTest {
    @Test
    void placeholdersInTheDescriptionAreInCodeSpans() {
        String outsideCode = ApiDocs.DESCRIPTION.replaceAll("`[^`]*`", "");
        assertThat(Pattern.compile("<[A-Za-z_][\\w-]*>").matcher(outsideCode).find()).as(ApiDocs.DESCRIPTION).isFalse();
        assertThat(ApiDocs.DESCRIPTION).contains("`Authorization: Bearer <token>`");
    }
}
