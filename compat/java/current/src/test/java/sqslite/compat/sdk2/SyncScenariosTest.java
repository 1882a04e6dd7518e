package sqslite.compat.sdk2;

/** Every row of docs/src/scenarios.md through SDK v2's synchronous SqsClient (Apache HTTP client). */
class SyncScenariosTest extends FifoScenarios {
    private static final Sqs CLIENT = Sqs.sync(Clients.sync());

    @Override
    protected Sqs client() {
        return CLIENT;
    }
}
