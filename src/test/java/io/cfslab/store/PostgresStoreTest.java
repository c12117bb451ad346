package io.cfslab.store;

import io.cfslab.testsupport.TestDatabase;

/**
 * The store on PostgreSQL: the server named by {@code CFSLAB_TEST_POSTGRES_URL} (CI starts one with
 * {@code .ci/postgres.sh}), else Testcontainers; skipped when neither is available.
 */
class PostgresStoreTest extends StoreContract {
    @Override
    TestDatabase database() { return TestDatabase.postgres(); }
}
