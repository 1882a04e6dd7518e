package sqslite.compat.sdk2;

/** Every row of docs/src/scenarios.md through SDK v2's SqsAsyncClient (Netty), each future awaited. */
class AsyncScenariosTest extends FifoScenarios {
    private static final Sqs CLIENT = Sqs.async(Clients.async());

    @Override
    protected Sqs client() {
        return CLIENT;
    }
}
