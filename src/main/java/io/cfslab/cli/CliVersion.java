package io.cfslab.cli;

import picocli.CommandLine.IVersionProvider;

/**
 * {@code -V} / {@code --version}: the jar manifest's {@code Implementation-Title} and {@code Implementation-Version}
 * (Maven writes the pom's name and version there), and the Java running it. Run from classes, not the jar, there is
 * no manifest: it says so instead of printing nothing.
 */
public final class CliVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }

    /** {@code cfslab 0.1.0-SNAPSHOT (CFS Bandwidth Lab; Java 17.0.x)}. */
    static String line() {
        Package p = Cli.class.getPackage();
        String version = p == null ? null : p.getImplementationVersion();
        String title = p == null ? null : p.getImplementationTitle();
        return "cfslab " + (version != null ? version : "(version unknown: not run from the jar)")
                + " (" + (title != null ? title + "; " : "") + "Java " + Runtime.version() + ")";
    }
}
