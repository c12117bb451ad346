package io.cfslab.runs;

/**
 * A run or experiment is not in a state that allows what was asked (cancel of a finished run, delete of a queued one, of
 * one run of an experiment); the message, written here for the person who asked, names the state and what to do.
 * The API answers it as a 409 with that message (a project's own exception, so its message may reach an answer:
 * {@code ArchitectureTest#noLibraryExceptionMessageReachesAnAnswer}).
 */
public class RunStateException extends IllegalStateException {
    RunStateException(String message) {
        super(message);
    }
}
