//! SQS at the front door, as every service meets it: the requests it takes (what no other
//! service names), one request read in either protocol, authenticated by the router's verdict,
//! run ([`execute`]) and encoded, and its words for the router's refusals.

mod execute;

use std::sync::Arc;

use bytes::Bytes;
use hyper::http::request::Parts;

use crate::faults::inject::Injector;
use crate::http::auth::{AuthResult, Principal};
use crate::http::service::{Answered, Handled, Refusal};
use crate::http::{Context, DropConnection, HttpResponse};
use crate::sqs::actions::{Action, Sqs};
use crate::sqs::declare::{Plan, QueueTemplate};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};
use crate::sqs::protocol::{self, Params, Protocol};

/// The SQS service: the queues, the fault rules its calls meet, and how queues are made on
/// first use.
pub struct Service {
    /// The queues, the clock and the ticker's wake-up.
    pub sqs: Arc<Sqs>,
    /// The fault rules, with what a hit touches.
    pub injector: Arc<Injector>,
    /// `auto_create` and `[[templates]]`: queues made when a call first names them.
    first_use: FirstUse,
}

/// What [`crate::sqs::declare::on_first_use`] reads of the settings.
struct FirstUse {
    /// The server's region and account.
    region: String,
    account_id: String,
    /// Any queue is made on first use.
    auto_create: bool,
    /// Queues whose name starts with a template's prefix are made from it.
    templates: Vec<QueueTemplate>,
}

impl Service {
    /// The service over `sqs`'s queues, making queues on first use as `plan` says.
    pub fn new(sqs: Arc<Sqs>, injector: Arc<Injector>, plan: &Plan<'_>) -> Self {
        Service {
            sqs,
            injector,
            first_use: FirstUse {
                region: plan.region.to_owned(),
                account_id: plan.account_id.to_owned(),
                auto_create: plan.auto_create,
                templates: plan.templates.to_vec(),
            },
        }
    }

    /// The settings queues are made on first use by.
    fn plan(&self) -> Plan<'_> {
        Plan {
            region: &self.first_use.region,
            account_id: &self.first_use.account_id,
            auto_create: self.first_use.auto_create,
            queues: &[],
            templates: &self.first_use.templates,
        }
    }
}

impl crate::http::service::Service for Service {
    const NAME: &'static str = "sqs";
    const SIGNING_NAME: &'static str = "sqs";
    const ACTIONS: &'static [&'static str] = Action::NAMES;
    type Body<'a> = &'a Bytes;

    /// SQS takes what no other service names: it is the port's first service, and
    /// ElasticMQ's and LocalStack's clients send it unsigned requests of every shape.
    fn names(_: &Parts, _: &[u8]) -> bool {
        true
    }

    fn refuse(parts: &Parts, request_id: &str, refusal: Refusal, message: &str) -> HttpResponse {
        let (protocol, _) = protocol::detect(&parts.method, &parts.headers, &Params::default());
        let kind = match refusal {
            Refusal::Origin => ErrorKind::AccessDenied,
            Refusal::Body => ErrorKind::InvalidParameterValue,
            Refusal::Busy => ErrorKind::ServiceUnavailable,
        };
        protocol::encode_error(protocol, request_id, &SqsError::new(kind, message))
    }

    fn handle<'a>(
        &'a self,
        mut ctx: Context,
        verdict: AuthResult<Option<Principal>>,
        parts: &'a Parts,
        body: &'a Bytes,
    ) -> impl std::future::Future<Output = Result<Answered, DropConnection>> + Send + 'a {
        let (params, protocol, named) = read_action(parts, body);
        let path_queue = path_queue(parts.uri.path());
        // A refused request is logged and counted under the action it named, when it named one.
        let (name, named) = match named {
            Ok(name) => (name, Ok(())),
            Err(e) => (String::new(), Err(e)),
        };
        let ready = verdict.map_err(SqsError::from).and_then(|principal| {
            named.map(|()| {
                if let Some(principal) = principal {
                    ctx.authenticate(principal);
                }
            })
        });
        let no_action = matches!(&ready, Err(e) if e.kind == ErrorKind::InvalidAction);
        if protocol.is_query() && no_action && path_queue.is_some() {
            let (action, index) = named_action(&name);
            let response = protocol::unknown_operation(&ctx.request_id);
            let answered = Answered::failed(response, action, "UnknownOperationException", "");
            return Handled::now(answered.at(index));
        }
        let call = execute::Call {
            ctx: &ctx,
            path_queue,
            protocol,
            name: &name,
        };
        let action = match ready.and_then(|()| execute::decode(call, body, &params)) {
            Ok(action) => action,
            Err(e) => return Handled::now(finished(protocol, &ctx.request_id, &name, Err(e))),
        };
        // A decoded action knows its name and place: no name is compared for the log.
        let named = (action.name(), Some(action.index()));
        if !execute::must_wait(self, &action) {
            let result = execute::run_now(self, call, action);
            let answer = answered(protocol, &ctx.request_id, named.0, result);
            return Handled::now(answer.at(named.1));
        }
        Handled::later(async move {
            let call = execute::Call {
                ctx: &ctx,
                path_queue,
                protocol,
                name: &name,
            };
            let result = execute::run_waiting(self, call, action).await?;
            Ok(answered(protocol, &ctx.request_id, named.0, result).at(named.1))
        })
    }

    fn unstored(&self, request_id: &str, message: &str) -> Answered {
        let err = SqsError::new(ErrorKind::InternalError, message.to_owned());
        answered(Protocol::Json, request_id, "", Err(err))
    }
}

/// The action a request named, as the list spells it, and its place in the list: found once,
/// for the log and the metrics.
fn named_action(name: &str) -> (&'static str, Option<usize>) {
    let index = Action::NAMES.iter().position(|n| *n == name);
    (index.map_or("", |i| Action::NAMES[i]), index)
}

/// A call's encoded answer under the action it named.
fn finished(
    protocol: Protocol,
    request_id: &str,
    name: &str,
    result: SqsResult<Vec<u8>>,
) -> Answered {
    let (action, index) = named_action(name);
    answered(protocol, request_id, action, result).at(index)
}

/// The encoded answer, with what the router logs and counts of it.
fn answered(
    protocol: Protocol,
    request_id: &str,
    action: &'static str,
    result: SqsResult<Vec<u8>>,
) -> Answered {
    match result {
        Ok(body) => Answered::ok(protocol::encode(protocol, request_id, Ok(body)), action),
        Err(e) => {
            let response = protocol::encode_error(protocol, request_id, &e);
            Answered::failed(response, action, e.kind.query_code(), &e.message)
        }
    }
}

/// The request path when it is not `/`: SQS's path-style Query requests name their queue
/// there.
fn path_queue(path: &str) -> Option<&str> {
    (!path.trim_matches('/').is_empty()).then_some(path)
}

/// The Query parameters (none for JSON, whose input is the body) and the action they name;
/// too many parameters is the request's error.
#[inline]
fn read_action<'a>(parts: &'a Parts, body: &'a [u8]) -> (Params<'a>, Protocol, SqsResult<String>) {
    let params = if parts.headers.contains_key(protocol::X_AMZ_TARGET) {
        Ok(Params::default())
    } else {
        protocol::query_params(parts.uri.query(), &parts.headers, body)
    };
    let (params, too_many) = match params {
        Ok(p) => (p, None),
        Err(e) => (Params::default(), Some(e)),
    };
    let (protocol, action_name) = protocol::detect(&parts.method, &parts.headers, &params);
    let action_name = match too_many {
        Some(e) => Err(e),
        None => action_name,
    };
    (params, protocol, action_name)
}
