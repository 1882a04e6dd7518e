//! FIFO queues: group ordering, deduplication, attempt ids, group blocking and FIFO DLQs
//! (`sends`, `receives`), and which groups a receive serves and when (`groups`); this module
//! holds the queue, receive and body helpers `sends` and `receives` share.

mod groups;
mod receives;
mod sends;

use crate::common::TestServer;
use aws_sdk_sqs::types::MessageSystemAttributeName;

async fn fifo(t: &TestServer, name: &str, extra: &[(&str, &str)]) -> String {
    let mut attrs = vec![("FifoQueue", "true")];
    attrs.extend_from_slice(extra);
    t.create_queue_with(name, &attrs).await
}

async fn receive(t: &TestServer, url: &str, max: i32) -> Vec<aws_sdk_sqs::types::Message> {
    t.client
        .receive_message()
        .queue_url(url)
        .max_number_of_messages(max)
        .message_system_attribute_names(MessageSystemAttributeName::All)
        .send()
        .await
        .unwrap()
        .messages()
        .to_vec()
}

fn bodies(msgs: &[aws_sdk_sqs::types::Message]) -> Vec<&str> {
    msgs.iter().filter_map(|m| m.body()).collect()
}
