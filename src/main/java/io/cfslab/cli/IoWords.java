package io.cfslab.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.NotLinkException;
import java.util.Locale;

/**
 * Why a file operation failed, in the words {@code strerror()} would use ("no such file or directory", "no space
 * left on device"), without Java's exception class names or a repeat of the file's name (the caller names it).
 */
final class IoWords {
    private IoWords() {}

    static String reason(IOException e) {
        String why;
        if (e instanceof NoSuchFileException) why = "no such file or directory";
        else if (e instanceof AccessDeniedException) why = "permission denied";
        else if (e instanceof NotDirectoryException) why = "not a directory";
        else if (e instanceof DirectoryNotEmptyException) why = "directory not empty";
        else if (e instanceof FileAlreadyExistsException) why = "file exists";
        else if (e instanceof NotLinkException) why = "not a symbolic link";
        else if (e instanceof FileSystemException f && f.getReason() != null) why = f.getReason();
        else if (e instanceof FileSystemException) why = "input/output error";
        else why = e.getMessage() != null ? e.getMessage() : "input/output error";
        // the JDK's reasons are strerror() text ("No space left on device"): lower case, as the rest of the line
        return why.isEmpty() ? "input/output error" : why.substring(0, 1).toLowerCase(Locale.ROOT) + why.substring(1);
    }
}
