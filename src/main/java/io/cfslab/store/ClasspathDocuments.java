package io.cfslab.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/** The JSON documents shipped in a classpath folder (ready-made scenarios and experiments), sorted by file name. */
final class ClasspathDocuments {
    private ClasspathDocuments() {}

    /** One document: its id (file name without {@code .json}) and text. */
    record Document(String id, String text) { }

    /** @param folder e.g. {@code scenarios}: every {@code classpath*:folder/*.json} */
    static List<Document> read(String folder) {
        try {
            Resource[] found = new PathMatchingResourcePatternResolver().getResources("classpath*:" + folder + "/*.json");
            List<Resource> sorted = new ArrayList<>(List.of(found));
            sorted.sort(Comparator.comparing(Resource::getFilename));
            List<Document> out = new ArrayList<>();
            for (Resource r : sorted) {
                out.add(new Document(r.getFilename().replaceFirst("\\.json$", ""), r.getContentAsString(StandardCharsets.UTF_8)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the ready-made " + folder, e);
        }
    }
}
