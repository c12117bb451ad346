package io.cfslab.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.io.PrintWriter;
import java.util.concurrent.ThreadLocalRandom;
import picocli.CommandLine;

/**
 * Where the command line's output fails: standard output ({@link PrintStream} and {@link PrintWriter} swallow a
 * write error, e.g. ENOSPC on {@code > /dev/full}, and only remember it) and the {@code --out} file, written so that
 * a failure never leaves a partial file nor loses the previous one. Both failures exit
 * {@link Cli#EXIT_IO_ERROR} with one line.
 */
final class CliOutput {
    private CliOutput() {}

    /**
     * The command's status, or {@link Cli#EXIT_IO_ERROR} after one line on standard error if anything it printed to
     * standard output was lost.
     */
    static int checked(CommandLine cl, int status) {
        boolean lost = cl.getOut().checkError(); // flushes, then reports the writer's error
        PrintStream out = System.out;
        lost |= out.checkError(); // the stream under it keeps its own
        if (!lost) return status;
        cl.getErr().println("cfslab: cannot write to standard output (the disk is full, or the reader closed it):"
                + " the output is incomplete");
        cl.getErr().flush();
        return Cli.EXIT_IO_ERROR;
    }

    /**
     * Writes {@code text} (UTF-8) to {@code out} atomically: into a new file beside it (same directory, so the same
     * file system), flushed to the disk, then renamed over {@code out} (rename(2) replaces it in one step). On failure
     * the temporary file is removed and {@code out} is as it was: its previous content or absent. A symbolic link is
     * followed (its target is replaced, the link stays). The new file takes the old one's permissions.
     *
     * @return true if written; false after one line on {@code err} ({@code out: cannot write: reason})
     */
    static boolean writeAtomically(Path out, String text, PrintWriter err) {
        Path target = out;
        Path tmp = null;
        try {
            target = target(out);
            Path dir = target.toAbsolutePath().getParent();
            tmp = dir.resolve("." + target.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                    + ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                 OutputStream os = java.nio.channels.Channels.newOutputStream(ch)) {
                os.write(text.getBytes(StandardCharsets.UTF_8));
                os.flush();
                ch.force(true); // on the disk before the rename makes it the result (a crash leaves the old one)
            }
            copyPermissions(target, tmp);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            err.println(out + ": cannot write: " + IoWords.reason(e) + (Files.exists(target) ? " (the file is unchanged)" : ""));
            err.flush();
            return false;
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // nothing more to do: the message above already says the write failed
                }
            }
        }
    }

    /**
     * The file a write to {@code out} replaces: {@code out}, or for a symbolic link (a dangling one too) the file it
     * points to, link after link, as open(2) follows them.
     */
    static Path target(Path out) throws IOException {
        Path p = out.toAbsolutePath();
        for (int i = 0; i < 40 && Files.isSymbolicLink(p); i++) p = p.getParent().resolve(Files.readSymbolicLink(p)).normalize();
        if (Files.isSymbolicLink(p)) throw new java.nio.file.FileSystemException(out.toString(), null, "too many levels of symbolic links");
        return p;
    }

    private static void copyPermissions(Path from, Path to) {
        try {
            var view = Files.getFileAttributeView(from, PosixFileAttributeView.class);
            if (view != null && Files.exists(from)) Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
        } catch (IOException | UnsupportedOperationException e) {
            // the default permissions (0666 less the umask) stay
        }
    }
}
