//! Which service a request is for: one table of the services on the port, read once per
//! request. A signed request is the service its credential scope names (a name no row has is
//! a service sqslite does not serve); an unsigned one is the first whose own rule it meets
//! (Lambda's path, S3's bucket in the Host or the path, SNS's `Version` or actions, STS's
//! `Version` and actions), else SQS's, which takes what no other names. Another service's
//! `X-Amz-Target` (`DynamoDB_20120810.*`) is not served either.
//!
//! A service whose bodies stream (S3) is claimed by the request's head alone, before the
//! router reads any of the body ([`Head::streamed`]): the rows before it read the head alone too,
//! so the order holds for both readings.

use hyper::header::HeaderValue;
use hyper::http::request::Parts;

use crate::http::auth::Signed;
use crate::http::service::Service;

/// A service on the port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Served {
    Sqs,
    Sns,
    Lambda,
    Sts,
    S3,
}

/// Who a request is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// A service on the port.
    Served(Served),
    /// A service sqslite does not serve, by its signing name or target prefix.
    Foreign(String),
}

/// One row: a service, the signing name its scope carries, and how an unsigned request names
/// it.
struct Row {
    served: Served,
    signing_name: &'static str,
    names: fn(&Parts, &[u8]) -> bool,
    /// Claimed by the head, its body handed over unread.
    streams: bool,
}

/// The table, in the order an unsigned request is tried: the rules that read the head alone
/// first, SQS last.
const TABLE: &[Row] = &[
    row::<crate::triggers::Service>(Served::Lambda),
    row::<crate::s3::Service>(Served::S3),
    row::<crate::sns::Service>(Served::Sns),
    row::<crate::sts::Service>(Served::Sts),
    row::<crate::sqs::service::Service>(Served::Sqs),
];

const fn row<S: Service>(served: Served) -> Row {
    Row {
        served,
        signing_name: S::SIGNING_NAME,
        names: S::names,
        streams: S::STREAMS,
    }
}

/// What the table reads of a request's head beyond its parts and scope: its `X-Amz-Target`,
/// looked up once for both readings ([`Head::streamed`] before the body, [`Head::claim`] after
/// it). Only the lookup is held across the body's read: each value held there is one more in
/// every request's future.
#[derive(Clone, Copy)]
pub struct Head<'a> {
    target: Option<&'a HeaderValue>,
}

impl<'a> Head<'a> {
    /// The head of `parts`.
    pub fn read(parts: &'a Parts) -> Self {
        Head {
            target: parts.headers.get(crate::http::X_AMZ_TARGET),
        }
    }

    /// The service whose bodies stream that `parts`, signed under `scope` or not at all, is
    /// for, by its head alone: the one its scope names, or unsigned, the one whose rule it
    /// meets before any other row's does.
    pub fn streamed(self, parts: &Parts, scope: Option<&Signed>) -> Option<Served> {
        if let Some(service) = service_of(scope) {
            return TABLE
                .iter()
                .find(|r| r.streams && r.signing_name == service)
                .map(|r| r.served);
        }
        if self.target.is_some() {
            return None;
        }
        let names = |r: &&Row| (r.names)(parts, &[]);
        TABLE
            .iter()
            .take_while(|r| !r.streams)
            .all(|r| !names(&r))
            .then(|| TABLE.iter().find(|r| r.streams && names(r)))
            .flatten()
            .map(|r| r.served)
    }

    /// Who `parts` (with `body`, empty before it is read), signed under `scope` or not at all,
    /// is for.
    pub fn claim(self, parts: &Parts, body: &[u8], scope: Option<&Signed>) -> Claim {
        if let Some(service) = service_of(scope) {
            return TABLE
                .iter()
                .find(|r| r.signing_name == service)
                .map_or_else(
                    || Claim::Foreign(service.to_owned()),
                    |r| Claim::Served(r.served),
                );
        }
        // A JSON request names its service in its target: SQS's, or one sqslite does not
        // serve (the Query services and Lambda's REST paths send none).
        if let Some(target) = self.target {
            return foreign_target(target).map_or(Claim::Served(Served::Sqs), Claim::Foreign);
        }
        let served = TABLE
            .iter()
            .find(|r| (r.names)(parts, body))
            .map_or(Served::Sqs, |r| r.served);
        Claim::Served(served)
    }
}

/// The service a signature's scope names, if it names one.
fn service_of(scope: Option<&Signed>) -> Option<&str> {
    scope.map(|s| s.service.as_str()).filter(|s| !s.is_empty())
}

/// The service an `X-Amz-Target` of the form `<Service>.<Operation>` names when it is not
/// SQS's; a bare or empty target is SQS's own UnknownOperationException.
fn foreign_target(target: &HeaderValue) -> Option<String> {
    // SQS's own, every SendMessage's target, is told by its first bytes, not a pass over all.
    if target.as_bytes().starts_with(b"AmazonSQS.") {
        return None;
    }
    let (service, _) = target.to_str().ok()?.split_once('.')?;
    (!service.is_empty() && service != "AmazonSQS").then(|| service.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(target: Option<&str>, path: &str) -> Parts {
        let mut builder = hyper::Request::builder().method("POST").uri(path);
        if let Some(t) = target {
            builder = builder.header("x-amz-target", t);
        }
        builder.body(()).unwrap().into_parts().0
    }

    fn claim(parts: &Parts, body: &[u8], scope: Option<&Signed>) -> Claim {
        Head::read(parts).claim(parts, body, scope)
    }

    fn streamed(parts: &Parts, scope: Option<&Signed>) -> Option<Served> {
        Head::read(parts).streamed(parts, scope)
    }

    fn signed(service: &str) -> Signed {
        Signed {
            access_key: "AKID".into(),
            scope: String::new(),
            scope_date: String::new(),
            region: "us-east-1".into(),
            service: service.into(),
            terminator: String::new(),
            headers: Vec::new(),
            signature: String::new(),
            amz_date: String::new(),
            expires: None,
            presigned: false,
        }
    }

    #[test]
    fn the_scope_decides_then_the_target_then_each_services_rule() {
        let plain = parts(None, "/");
        let by_scope = |s: &str| claim(&plain, &[], Some(&signed(s)));
        assert_eq!(by_scope("s3"), Claim::Served(Served::S3));
        assert_eq!(by_scope("dynamodb"), Claim::Foreign("dynamodb".into()));
        assert_eq!(by_scope("sqs"), Claim::Served(Served::Sqs));
        assert_eq!(by_scope("sns"), Claim::Served(Served::Sns));
        assert_eq!(by_scope("lambda"), Claim::Served(Served::Lambda));
        assert_eq!(by_scope("sts"), Claim::Served(Served::Sts));
        let sts = b"Action=GetCallerIdentity&Version=2011-06-15";
        assert_eq!(claim(&plain, sts, None), Claim::Served(Served::Sts));
        assert_eq!(claim(&plain, &[], None), Claim::Served(Served::Sqs));
        let dynamo = parts(Some("DynamoDB_20120810.ListTables"), "/");
        assert_eq!(
            claim(&dynamo, &[], None),
            Claim::Foreign("DynamoDB_20120810".into())
        );
        let sqs = parts(Some("AmazonSQS.ListQueues"), "/");
        assert_eq!(claim(&sqs, &[], None), Claim::Served(Served::Sqs));
        let bare = parts(Some("Frobnicate"), "/");
        assert_eq!(claim(&bare, &[], None), Claim::Served(Served::Sqs));
        let sns = b"Action=ListTopics&Version=2010-03-31";
        assert_eq!(claim(&plain, sns, None), Claim::Served(Served::Sns));
        let lambda = parts(None, "/2015-03-31/event-source-mappings/");
        assert_eq!(claim(&lambda, &[], None), Claim::Served(Served::Lambda));
    }

    #[test]
    fn s3_is_claimed_by_the_head_before_any_body_is_read() {
        let get = |path: &str| {
            let builder = hyper::Request::builder().method("GET").uri(path);
            builder.body(()).unwrap().into_parts().0
        };
        let bucket = get("/orders/o-1.json");
        assert_eq!(streamed(&bucket, None), Some(Served::S3));
        assert_eq!(claim(&bucket, &[], None), Claim::Served(Served::S3));
        let plain = parts(None, "/");
        assert_eq!(streamed(&plain, Some(&signed("s3"))), Some(Served::S3));
        for other in ["sqs", "sns", "sts", "lambda", "dynamodb"] {
            assert_eq!(streamed(&plain, Some(&signed(other))), None, "{other}");
        }
        let mapping = get("/2015-03-31/event-source-mappings/");
        assert_eq!(streamed(&mapping, None), None);
        assert_eq!(streamed(&get("/?Action=ListQueues"), None), None);
        let target = parts(Some("AmazonSQS.ListQueues"), "/bucket/key");
        assert_eq!(streamed(&target, None), None);
    }
}
