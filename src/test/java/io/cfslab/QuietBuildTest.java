package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./mvnw -q package} prints nothing for the front end when it builds, and every error when it does not: npm's
 * and Vite's progress lines (standard output) go through Maven's logger at INFO, which {@code -q} hides, their errors
 * (standard error) at ERROR (exec-maven-plugin's {@code useMavenLogger}); tsc, which writes its errors to standard
 * output, has them sent to standard error by the build script. Vitest keeps its own output (a test phase shows its
 * failures as they are). Checked by hand on 2026-12-02: a type error and an unresolved import each failed
 * {@code ./mvnw -B -q -DskipTests package} with the error shown; a clean build printed nothing.
 */
class QuietBuildTest {
    @Test
    void theFrontEndsProgressFollowsMavensLogLevelAndItsErrorsAlwaysShow() throws Exception {
        var pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        Map<String, String> logger = new LinkedHashMap<>();
        NodeList executions = pom.getElementsByTagName("execution");
        for (int i = 0; i < executions.getLength(); i++) {
            Element e = (Element) executions.item(i);
            String id = e.getElementsByTagName("id").item(0).getTextContent();
            if (!id.startsWith("npm-")) continue;
            NodeList u = e.getElementsByTagName("useMavenLogger");
            logger.put(id, u.getLength() == 0 ? "false" : u.item(0).getTextContent().strip());
        }
        assertThat(logger).containsEntry("npm-ci", "true").containsEntry("npm-build", "true")
                .containsEntry("npm-test", "false");
        String build = JsonMapper.builder().build().readTree(Files.readString(Path.of("frontend/package.json")))
                .path("scripts").path("build").asString();
        assertThat(build).as("tsc's errors on standard error").matches(".*tsc [^&]*1>&2 .*");
    }
}
