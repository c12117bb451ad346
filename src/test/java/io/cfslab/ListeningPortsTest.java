package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

/**
 * A started service, with the database URL of {@code application.yml} (only its file moved under
 * {@code target/}), listens on its HTTP port and nothing else, and by default on 127.0.0.1 only. H2's
 * {@code AUTO_SERVER=TRUE} (or any other server a dependency starts) would open a second port, on every
 * interface (issue 13). Sockets are read from {@code /proc/net/{tcp,tcp6,udp,udp6}} and matched to this
 * JVM's file descriptors ({@code /proc/self/fd}); those that existed before the start (other tests' servers)
 * do not count.
 */
@EnabledOnOs(OS.LINUX)
class ListeningPortsTest {

    /** A listening TCP socket or a bound UDP socket. */
    record Listener(String proto, String address, int port) { }

    @Test
    void aStartedServiceListensOnItsHttpPortOnlyAndOnLoopback() throws Exception {
        String configured = (String) new YamlPropertySourceLoader()
                .load("application", new ClassPathResource("application.yml")).get(0)
                .getProperty("spring.datasource.url");
        assertThat(configured).startsWith("jdbc:h2:file:./data/");
        String url = configured.replace("./data/", "./target/ports-test-" + UUID.randomUUID().toString().substring(0, 8) + "/");

        Set<Listener> before = listeners();
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(CfsLabApplication.class)
                .run("--server.port=0", "--spring.datasource.url=" + url, "--spring.main.banner-mode=off")) {
            int port = Integer.parseInt(ctx.getEnvironment().getProperty("local.server.port"));
            Set<Listener> opened = listeners();
            opened.removeAll(before);
            assertThat(opened).as("sockets the service opened (H2 AUTO_SERVER would add one)")
                    .containsExactly(new Listener("tcp", "127.0.0.1", port));
        }
    }

    /** Listening sockets owned by this process. */
    static Set<Listener> listeners() throws IOException {
        Set<Long> mine = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) mine.add(Long.parseLong(target.substring(8, target.length() - 1)));
                } catch (IOException closedMeanwhile) {
                    // the descriptor of Files.list itself, or one closed since
                }
            }
        }
        Set<Listener> out = new HashSet<>();
        for (String proto : List.of("tcp", "tcp6", "udp", "udp6")) {
            Path table = Path.of("/proc/net", proto);
            if (!Files.exists(table)) continue;
            List<String> lines = Files.readAllLines(table);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                boolean listening = proto.startsWith("tcp") ? f[3].equals("0A") : f[3].equals("07");
                if (!listening || !mine.contains(Long.parseLong(f[9]))) continue;
                String[] local = f[1].split(":");
                out.add(new Listener(proto.substring(0, 3), address(local[0]), Integer.parseInt(local[1], 16)));
            }
        }
        return out;
    }

    /** /proc/net's hex address (each 32-bit word in host byte order, little-endian here) as text. */
    static String address(String hex) {
        Map<String, String> v6 = new HashMap<>(Map.of("00000000000000000000000000000000", "::",
                "00000000000000000000000001000000", "::1"));
        if (hex.length() == 32) {
            if (v6.containsKey(hex)) return v6.get(hex);
            if (hex.startsWith("0000000000000000FFFF0000")) return address(hex.substring(24)); // v4-mapped
            return hex;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 3; i >= 0; i--) {
            if (sb.length() > 0) sb.append('.');
            sb.append(Integer.parseInt(hex.substring(i * 2, i * 2 + 2), 16));
        }
        return sb.toString();
    }
}
