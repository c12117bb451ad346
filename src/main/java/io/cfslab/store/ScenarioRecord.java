package io.cfslab.store;

import java.time.Instant;

/**
 * A stored user scenario.
 *
 * @param id        opaque id (UUID text)
 * @param name      the scenario's {@code name}
 * @param document  the contract scenario as JSON text, as the user built it
 * @param createdAt creation time
 * @param updatedAt last change
 * @param version   incremented by every change
 */
public record ScenarioRecord(String id, String name, String document, Instant createdAt, Instant updatedAt,
                             long version) {
}
