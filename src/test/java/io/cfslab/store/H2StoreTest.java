package io.cfslab.store;

import io.cfslab.testsupport.TestDatabase;

/** The store on the embedded H2 file database (the default). */
class H2StoreTest extends StoreContract {
    @Override
    TestDatabase database() { return TestDatabase.h2("store"); }
}
