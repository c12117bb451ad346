package io.cfslab;

import io.cfslab.cli.Cli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Entry point. {@code java -jar cfslab.jar simulate SCENARIO [--out RESULT.json]} runs one scenario on
 * the command line without starting the web server, as every other command; no argument, or only Spring properties
 * ({@code --server.port=8081}), start the service ({@link Cli#startsService}).
 */
@SpringBootApplication
public class CfsLabApplication {

    public static void main(String[] args) {
        if (!Cli.startsService(args)) System.exit(Cli.run(args));
        String bad = ServiceProperties.problem(args);
        if (bad != null) {
            // a misspelt or unbindable property: one line, before Spring opens the database (breaker 5 F3)
            System.err.println(bad);
            System.exit(Cli.EXIT_BAD_INPUT);
        }
        SpringApplication.run(CfsLabApplication.class, args);
    }
}
