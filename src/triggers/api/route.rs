//! Lambda's REST routes for event source mappings: which operation a method and path name,
//! decoded once into a typed [`Operation`] (paths and methods from Lambda's service model).

use hyper::Method;

use super::error::{LambdaError, LambdaErrorKind, LambdaResult};
use super::input::MappingRequest;

/// Lambda's API version, the first segment of every path.
pub const VERSION_PREFIX: &str = "/2015-03-31/";
/// The collection every operation here sits under.
const COLLECTION: &str = "/2015-03-31/event-source-mappings";

/// ListEventSourceMappings' query: `EventSourceArn`, `FunctionName`, `Marker`, `MaxItems`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ListQuery {
    /// Only mappings of this queue ARN.
    pub event_source_arn: Option<String>,
    /// Only mappings of this function (name or ARN).
    pub function_name: Option<String>,
    /// Where the previous page stopped (its `NextMarker`).
    pub marker: Option<String>,
    /// The most mappings to return (1..=10000; at most 100 are returned per page).
    pub max_items: Option<String>,
}

/// One event-source-mapping operation, with its decoded input.
#[derive(Debug)]
pub enum Operation {
    /// `POST /2015-03-31/event-source-mappings/`.
    Create(MappingRequest),
    /// `GET /2015-03-31/event-source-mappings/{UUID}`.
    Get(String),
    /// `GET /2015-03-31/event-source-mappings/`.
    List(ListQuery),
    /// `PUT /2015-03-31/event-source-mappings/{UUID}`.
    Update(String, MappingRequest),
    /// `DELETE /2015-03-31/event-source-mappings/{UUID}`.
    Delete(String),
}

impl Operation {
    /// The operation a request names, or sqslite's refusal of a Lambda path it does not serve.
    pub fn decode(
        method: &Method,
        path: &str,
        query: Option<&str>,
        body: &[u8],
    ) -> LambdaResult<Operation> {
        let rest = path.strip_prefix(COLLECTION).and_then(|r| {
            if r.is_empty() || r == "/" {
                Some(None)
            } else {
                r.strip_prefix('/')
                    .filter(|uuid| !uuid.contains('/'))
                    .map(Some)
            }
        });
        let Some(uuid) = rest else {
            return Err(unknown(method, path));
        };
        let uuid = uuid.map(|u| percent_encoding::percent_decode_str(u).decode_utf8_lossy());
        Ok(match (method, uuid) {
            (&Method::POST, None) => Operation::Create(MappingRequest::decode(body)?),
            (&Method::GET, None) => Operation::List(list_query(query)),
            (&Method::GET, Some(uuid)) => Operation::Get(uuid.into_owned()),
            (&Method::PUT, Some(uuid)) => {
                Operation::Update(uuid.into_owned(), MappingRequest::decode(body)?)
            }
            (&Method::DELETE, Some(uuid)) => Operation::Delete(uuid.into_owned()),
            _ => return Err(unknown(method, path)),
        })
    }

    /// Every operation's name, in [`Operation::name`]'s spelling.
    pub const NAMES: &'static [&'static str] = &[
        "CreateEventSourceMapping",
        "GetEventSourceMapping",
        "ListEventSourceMappings",
        "UpdateEventSourceMapping",
        "DeleteEventSourceMapping",
    ];

    /// Lambda's operation name, for logs.
    pub fn name(&self) -> &'static str {
        match self {
            Operation::Create(_) => "CreateEventSourceMapping",
            Operation::Get(_) => "GetEventSourceMapping",
            Operation::List(_) => "ListEventSourceMappings",
            Operation::Update(..) => "UpdateEventSourceMapping",
            Operation::Delete(_) => "DeleteEventSourceMapping",
        }
    }
}

/// ListEventSourceMappings' query: FunctionName, EventSourceArn, Marker, MaxItems.
fn list_query(query: Option<&str>) -> ListQuery {
    let mut out = ListQuery::default();
    for (k, v) in form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        let slot = match k.as_ref() {
            "EventSourceArn" => &mut out.event_source_arn,
            "FunctionName" => &mut out.function_name,
            "Marker" => &mut out.marker,
            "MaxItems" => &mut out.max_items,
            _ => continue,
        };
        *slot = Some(v.into_owned());
    }
    out
}

/// A Lambda request sqslite does not serve: every Lambda operation but the mappings'.
fn unknown(method: &Method, path: &str) -> LambdaError {
    LambdaError::new(
        LambdaErrorKind::UnknownOperation,
        format!(
            "sqslite serves Lambda's event source mapping operations only \
             (Create, Get, List, Update and DeleteEventSourceMapping under {COLLECTION}); \
             {method} {path} is not one of them."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(method: &Method, path: &str, query: Option<&str>) -> LambdaResult<Operation> {
        Operation::decode(method, path, query, b"{}")
    }

    #[test]
    fn routes_each_operation() {
        let c = "/2015-03-31/event-source-mappings";
        assert!(matches!(
            op(&Method::POST, &format!("{c}/"), None),
            Ok(Operation::Create(_))
        ));
        assert!(matches!(
            op(&Method::POST, c, None),
            Ok(Operation::Create(_))
        ));
        assert!(
            matches!(op(&Method::GET, &format!("{c}/a%2Db"), None), Ok(Operation::Get(u)) if u == "a-b")
        );
        assert!(
            matches!(op(&Method::PUT, &format!("{c}/u"), None), Ok(Operation::Update(u, _)) if u == "u")
        );
        assert!(matches!(
            op(&Method::DELETE, &format!("{c}/u"), None),
            Ok(Operation::Delete(_))
        ));
        let Ok(Operation::List(q)) = op(&Method::GET, c, Some("FunctionName=f&MaxItems=2&x=1"))
        else {
            panic!("list")
        };
        assert_eq!(
            (q.function_name.as_deref(), q.max_items.as_deref()),
            (Some("f"), Some("2"))
        );
    }

    #[test]
    fn refuses_what_it_does_not_serve() {
        for (m, p) in [
            (Method::POST, "/2015-03-31/functions"),
            (Method::DELETE, "/2015-03-31/event-source-mappings/"),
            (Method::POST, "/2015-03-31/event-source-mappings/u"),
            (Method::GET, "/2015-03-31/event-source-mappings/u/x"),
            (Method::GET, "/2015-03-31/event-source-mappingsX"),
        ] {
            let err = op(&m, p, None).unwrap_err();
            assert_eq!(
                (err.code(), err.status()),
                ("UnknownOperationException", 404),
                "{p}"
            );
        }
    }
}
