package sqslite.compat.sdk2;

/** The SNS rows of docs/src/scenarios.md through SDK v2's synchronous SnsClient. */
class SnsSyncScenariosTest extends SnsScenarios {
    private static final Sns CLIENT = Sns.sync(Clients.sns());

    @Override
    protected Sns client() {
        return CLIENT;
    }
}
