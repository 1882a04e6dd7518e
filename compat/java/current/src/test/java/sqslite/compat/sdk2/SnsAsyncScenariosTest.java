package sqslite.compat.sdk2;

/** The SNS rows of docs/src/scenarios.md through SDK v2's SnsAsyncClient (Netty), each future awaited. */
class SnsAsyncScenariosTest extends SnsScenarios {
    private static final Sns CLIENT = Sns.async(Clients.snsAsync());

    @Override
    protected Sns client() {
        return CLIENT;
    }
}
