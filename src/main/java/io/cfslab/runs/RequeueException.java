package io.cfslab.runs;

/** Thrown out of a queue execution so that the queue runs it again from the start (instance shutting down). */
class RequeueException extends RuntimeException {
    RequeueException(String runId) { super("run " + runId + " re-queued: instance shutting down"); }
}
