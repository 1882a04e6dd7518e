//! Drills fed by uploads (issue 51, item 3): a drill's `[[buckets]]` are created with their
//! notifications through S3's own API, an `upload` step's objects turn into S3 events that
//! count as the drill's messages of their kind, in a queue directly or through a topic, and
//! S3's validation of a destination stops a drill that could never see its events.

use super::bounds::{served, served_or_not};
use super::verdicts::case;

/// A bucket whose `.csv` uploads under `in/` go to `events`, and whose others go to a topic
/// that a raw-less subscription carries into `fanned`.
const UPLOADS: &str = r#"
[drill]
name = "uploads"
look_ms = 20

[[queues]]
name = "events"

[[queues]]
name = "fanned"

[[topics]]
name = "uploaded"

[[topics.subscriptions]]
protocol = "sqs"
endpoint = "fanned"

[[buckets]]
name = "drill-uploads"

[[buckets.notifications]]
queue = "events"
prefix = "in/"
suffix = ".csv"

[[buckets.notifications]]
topic = "uploaded"
prefix = "out/"

[[method]]
action = "upload"
bucket = "drill-uploads"
prefix = "in/"
suffix = ".csv"
count = 3
body = "a,b\n{seq},{run}\n"

[[method]]
action = "upload"
bucket = "drill-uploads"
prefix = "in/has space+plus/"
suffix = ".csv"
kind = "odd"

[[method]]
action = "upload"
bucket = "drill-uploads"
prefix = "out/"
kind = "fanned"
count = 2

[[method]]
action = "upload"
bucket = "drill-uploads"
prefix = "elsewhere/"
kind = "unseen"

[[expect]]
name = "three csv uploads"
probe = "depth"
queue = "events"
kind = "valid"
equals = 3

[[expect]]
name = "one upload under a key S3 encodes"
probe = "depth"
queue = "events"
kind = "odd"
equals = 1

[[expect]]
name = "S3's test event besides"
probe = "depth"
queue = "events"
equals = 5

[[expect]]
name = "two through the topic"
probe = "depth"
queue = "fanned"
kind = "fanned"
equals = 2

[[expect]]
name = "none unfiltered"
probe = "depth"
queue = "events"
kind = "unseen"
equals = 0
"#;

#[tokio::test]
async fn uploads_count_as_the_drills_messages_wherever_their_events_go() {
    let (verdict, printed) = served(UPLOADS).await;
    for name in [
        "three csv uploads",
        "one upload under a key S3 encodes",
        "S3's test event besides",
        "two through the topic",
        "none unfiltered",
    ] {
        let (passed, detail) = case(&verdict, name, &printed);
        assert!(passed, "{name}: {detail}\n{printed}");
    }
}

/// What `run` says of a drill that cannot run.
async fn cannot_run(text: &str) -> String {
    match served_or_not(text).await {
        (Ok(_), out) => panic!("the drill ran: {out}"),
        (Err(e), _) => e,
    }
}

#[tokio::test]
async fn a_destination_s3_refuses_stops_the_drill_before_it_sends() {
    let text = r#"
[drill]
name = "fifo"

[[queues]]
name = "events.fifo"
FifoQueue = true

[[buckets]]
name = "drill-fifo"

[[buckets.notifications]]
queue = "events.fifo"

[[method]]
action = "upload"
bucket = "drill-fifo"
"#;
    let error = cannot_run(text).await;
    assert!(
        error.contains("cannot configure bucket `drill-fifo`'s notifications: InvalidArgument Unable to validate the following destination configurations"),
        "{error}"
    );
}

#[tokio::test]
async fn buckets_and_uploads_name_what_the_drill_declares() {
    let undeclared_bucket = "[drill]\nname = \"x\"\n\n[[queues]]\nname = \"q\"\n\n[[method]]\naction = \"upload\"\nbucket = \"nope\"\n";
    let error = cannot_run(undeclared_bucket).await;
    assert!(
        error.contains(":9:10: the drill declares no bucket `nope` ([[buckets]]); it has none"),
        "{error}"
    );
    let no_bucket = "[drill]\nname = \"x\"\n\n[[method]]\naction = \"upload\"\n";
    assert!(
        cannot_run(no_bucket)
            .await
            .contains("step `upload` needs `bucket`"),
        "no bucket"
    );
    let undeclared_queue = "[drill]\nname = \"x\"\n\n[[buckets]]\nname = \"b-1\"\n\n[[buckets.notifications]]\nqueue = \"ghost\"\n";
    let error = cannot_run(undeclared_queue).await;
    assert!(
        error.contains(":8:9: the drill declares no queue `ghost` ([[queues]] or [requires] queues); it has none"),
        "{error}"
    );
    let nameless = "[drill]\nname = \"x\"\n\n[[buckets]]\nnotifications = []\n";
    let error = cannot_run(nameless).await;
    assert!(error.contains("missing field `name`"), "{error}");
}
