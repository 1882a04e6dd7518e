//! A running sqslite seen from outside: SQS calls in AWS JSON 1.0, SNS calls in AWS Query,
//! S3 requests and admin API calls, all plain HTTP through [`crate::http::client`]. The
//! drills and the advisor's doctor speak through it.

use std::time::Duration;

use serde_json::{json, Value};

use crate::http::client::{request, Reply};

const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Endpoint {
    base: String,
    /// `Authorization` for the admin API, from SQSLITE_ADMIN_TOKEN as the server reads it.
    admin_auth: Option<String>,
}

impl Endpoint {
    pub fn new(endpoint: &str) -> Self {
        Endpoint {
            base: endpoint.trim_end_matches('/').to_owned(),
            admin_auth: std::env::var("SQSLITE_ADMIN_TOKEN")
                .ok()
                .filter(|t| !t.is_empty())
                .map(|t| format!("Bearer {t}")),
        }
    }

    /// One SQS action; `Err` carries the SQS error type and message.
    pub async fn sqs(&self, action: &str, input: &Value) -> Result<Value, String> {
        let target = format!("AmazonSQS.{action}");
        let headers = [
            ("x-amz-target", target.as_str()),
            ("content-type", "application/x-amz-json-1.0"),
            // Any credentials do; this names the default region like an SDK would.
            (
                "authorization",
                "AWS4-HMAC-SHA256 Credential=drill/20240101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0",
            ),
        ];
        let body = serde_json::to_vec(input).unwrap_or_default();
        let reply = request("POST", &self.base, &headers, body, TIMEOUT).await?;
        let value = reply.json().unwrap_or(Value::Null);
        if reply.ok() {
            Ok(value)
        } else {
            Err(format!(
                "{action} failed: {} {}",
                value["__type"].as_str().unwrap_or("?"),
                value["message"].as_str().unwrap_or(&reply.body)
            ))
        }
    }

    /// One SNS action in AWS Query form; `Err` carries the answer's error.
    pub async fn sns(&self, action: &str, params: &[(String, String)]) -> Result<String, String> {
        let mut form = form_urlencoded::Serializer::new(String::new());
        form.append_pair("Action", action)
            .append_pair("Version", "2010-03-31");
        for (k, v) in params {
            form.append_pair(k, v);
        }
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            (
                "authorization",
                "AWS4-HMAC-SHA256 Credential=drill/20240101/us-east-1/sns/aws4_request, SignedHeaders=host, Signature=0",
            ),
        ];
        let reply = request(
            "POST",
            &self.base,
            &headers,
            form.finish().into_bytes(),
            TIMEOUT,
        )
        .await?;
        if reply.ok() {
            Ok(reply.body)
        } else {
            Err(format!("{action} failed: {} {}", reply.status, reply.body))
        }
    }

    /// One S3 request, path-style, its payload unsigned; `Err` carries S3's error code and
    /// message.
    pub async fn s3(&self, method: &str, path: &str, body: Vec<u8>) -> Result<String, String> {
        let url = format!("{}{path}", self.base);
        let headers = [
            ("x-amz-content-sha256", "UNSIGNED-PAYLOAD"),
            (
                "authorization",
                "AWS4-HMAC-SHA256 Credential=drill/20240101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0",
            ),
        ];
        let reply = request(method, &url, &headers, body, TIMEOUT).await?;
        if reply.ok() {
            return Ok(reply.body);
        }
        let element = |name: &str| {
            let open = format!("<{name}>");
            let start = reply.body.find(&open)? + open.len();
            let end = reply.body[start..].find('<')? + start;
            Some(reply.body[start..end].to_owned())
        };
        Err(format!(
            "{} {}",
            element("Code").unwrap_or_else(|| reply.status.to_string()),
            element("Message").unwrap_or_default()
        ))
    }

    pub async fn get(&self, path: &str) -> Result<Value, String> {
        self.admin("GET", path, None).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, String> {
        self.admin("POST", path, Some(body)).await
    }

    pub async fn put(&self, path: &str, body: &Value) -> Result<Value, String> {
        self.admin("PUT", path, Some(body)).await
    }

    pub async fn delete(&self, path: &str) -> Result<Value, String> {
        self.admin("DELETE", path, None).await
    }

    async fn admin(&self, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
        let url = format!("{}{path}", self.base);
        let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
        let mut headers = vec![("content-type", "application/json")];
        if let Some(auth) = &self.admin_auth {
            headers.push(("authorization", auth.as_str()));
        }
        let reply: Reply = request(method, &url, &headers, bytes, TIMEOUT).await?;
        let value = reply.json()?;
        if reply.ok() {
            Ok(value)
        } else {
            Err(format!(
                "{method} {path}: {} {}",
                reply.status,
                value["error"].as_str().unwrap_or(&reply.body)
            ))
        }
    }

    /// The server's clock: (now in ms, whether it is manual).
    pub async fn clock(&self) -> Result<(u64, bool), String> {
        let c = self.get("/_sqslite/clock").await?;
        Ok((
            c["now"].as_u64().unwrap_or(0),
            c["manual"].as_bool().unwrap_or(false),
        ))
    }

    pub async fn advance(&self, seconds: u64) -> Result<u64, String> {
        let c = self
            .post("/_sqslite/clock/advance", &json!({ "seconds": seconds }))
            .await?;
        Ok(c["now"].as_u64().unwrap_or(0))
    }
}
