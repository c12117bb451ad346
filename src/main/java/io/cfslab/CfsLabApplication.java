package io.cfslab;

import io.cfslab.cli.Cli;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Entry point. {@code java -jar cfslab.jar simulate SCENARIO [--out RESULT.json]} runs one scenario on
 * the command line without starting the web server; anything else starts the service.
 */
@SpringBootApplication
public class CfsLabApplication {

    public static void main(String[] args) {
        if (args.length > 0 && Cli.isCommand(args[0])) {
            System.exit(Cli.run(args));
        }
        SpringApplication.run(CfsLabApplication.class, args);
    }
}
