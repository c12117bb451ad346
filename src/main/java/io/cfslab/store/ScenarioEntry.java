package io.cfslab.store;

/**
 * A scenario as the API lists it: a stored one or a ready-made one (read-only, from the classpath).
 *
 * @param id        id ({@code seed03-functional} for ready-made ones, a UUID for stored ones)
 * @param name      the scenario's name
 * @param readyMade true for the built-in, read-only scenarios
 * @param document  the contract scenario, JSON text; null in a list of summaries (stored ones are listed without it)
 * @param version   1 for ready-made; incremented by every change of a stored one
 */
public record ScenarioEntry(String id, String name, boolean readyMade, String document, long version) {
}
