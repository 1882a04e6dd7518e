//! Invoking a declared function with an event: an HTTP POST, Lambda's Invoke API, or a
//! command. Each call is bounded by the function's timeout (wall time: it bounds real I/O,
//! as the alarm webhooks' timeouts do, not the server's possibly manual clock).

use super::functions::{Function, Target};
use crate::http::outbound::Outbound;

/// How one invocation ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The function returned; its response payload (possibly empty).
    Returned(String),
    /// A function error, a timeout or a failed call, with what went wrong.
    Failed(String),
}

/// Lambda's limit on a synchronous invocation's response (6 MB, Lambda quotas): a longer
/// answer is a function error, as Lambda's is, and is never read past it.
const MAX_RESPONSE: usize = 6 * 1024 * 1024;

/// Invokes `function` with the `event` JSON; an HTTP function is called only where the
/// server's `outbound` rule lets it.
pub async fn invoke(
    function: &Function,
    event: &serde_json::Value,
    outbound: &Outbound,
) -> Outcome {
    let payload = event.to_string().into_bytes();
    match &function.target {
        Target::Url(url) => post(url, payload, function, outbound).await,
        Target::InvokeUrl(base) => {
            let url = invoke_api_url(base, &function.name);
            match post(&url, payload, function, outbound).await {
                Outcome::Returned(body) if is_error_document(&body) => {
                    Outcome::Failed(format!("function error (Unhandled): {body}"))
                }
                outcome => outcome,
            }
        }
        Target::Command(argv) => {
            super::command::run(argv, payload, function.timeout, MAX_RESPONSE).await
        }
    }
}

/// The Invoke API's URL on `base` for the function `name`. A base that already names an
/// invocation path is used as it is: the Lambda Runtime Interface Emulator serves its one
/// function as `/2015-03-31/functions/function/invocations`, whatever the function is called.
fn invoke_api_url(base: &str, name: &str) -> String {
    if base.contains("/2015-03-31/functions/") {
        return base.to_owned();
    }
    format!(
        "{}/2015-03-31/functions/{name}/invocations",
        base.trim_end_matches('/')
    )
}

/// Whether an Invoke API answer is a runtime's error document (`errorMessage`, `errorType`
/// and nothing a handler's own result would add). Lambda marks a function error with
/// `X-Amz-Function-Error`, but the Runtime Interface Emulator drops that header and answers
/// 200 with this document, so without the check a handler that raises behind it would have
/// its batch deleted.
fn is_error_document(body: &str) -> bool {
    const KEYS: [&str; 5] = [
        "errorMessage",
        "errorType",
        "requestId",
        "stackTrace",
        "cause",
    ];
    let Ok(serde_json::Value::Object(doc)) = serde_json::from_str::<serde_json::Value>(body) else {
        return false;
    };
    doc.get("errorType")
        .is_some_and(serde_json::Value::is_string)
        && doc.contains_key("errorMessage")
        && doc.keys().all(|k| KEYS.contains(&k.as_str()))
}

pub fn timed_out(timeout: std::time::Duration) -> String {
    format!("Task timed out after {:.2} seconds", timeout.as_secs_f64())
}

/// One POST; a non-2xx status or Lambda's `X-Amz-Function-Error` header is a failure.
async fn post(url: &str, payload: Vec<u8>, function: &Function, outbound: &Outbound) -> Outcome {
    let headers = [("content-type", "application/json")];
    let call = crate::http::client::Call {
        method: "POST",
        url,
        headers: &headers,
        outbound: Some(outbound),
        chosen_by: crate::http::outbound::ChosenBy::Operator,
        max_reply: MAX_RESPONSE,
    };
    let reply = match crate::http::client::call(call, payload, function.timeout).await {
        Ok(reply) => reply,
        Err(e) if e.contains("no answer within") => {
            return Outcome::Failed(timed_out(function.timeout))
        }
        Err(e) => return Outcome::Failed(e),
    };
    if let Some(kind) = reply.headers.get("x-amz-function-error") {
        let kind = kind.to_str().unwrap_or("Unhandled");
        return Outcome::Failed(format!("function error ({kind}): {}", reply.body));
    }
    if reply.ok() {
        Outcome::Returned(reply.body)
    } else {
        Outcome::Failed(format!("HTTP {}: {}", reply.status, reply.body))
    }
}

#[cfg(test)]
mod tests {
    use super::{invoke_api_url, is_error_document};

    #[test]
    fn the_invoke_path_is_added_unless_given() {
        assert_eq!(
            invoke_api_url("http://h:9000/", "orders"),
            "http://h:9000/2015-03-31/functions/orders/invocations"
        );
        let rie = "http://h:9000/2015-03-31/functions/function/invocations";
        assert_eq!(invoke_api_url(rie, "orders"), rie);
    }

    #[test]
    fn a_runtime_error_document_is_a_function_error_and_a_result_is_not() {
        let raised =
            r#"{"errorMessage":"boom","errorType":"ValueError","requestId":"r","stackTrace":[]}"#;
        assert!(is_error_document(raised));
        assert!(is_error_document(
            r#"{"errorMessage":"boom","errorType":"Exception"}"#
        ));
        for result in [
            r#"{"batchItemFailures":[]}"#,
            r#"{"errorType":"x","errorMessage":"y","batchItemFailures":[]}"#,
            r#"{"errorMessage":"only a message"}"#,
            "null",
            "",
            "not json",
        ] {
            assert!(!is_error_document(result), "{result}");
        }
    }
}
