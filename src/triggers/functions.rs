//! Declared functions (`[[functions]]`): a name and how to invoke it. sqslite runs no code of
//! its own; a function is an HTTP endpoint, a Lambda Invoke API, or a command.

use std::time::Duration;

/// Lambda's default function timeout (3 seconds).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(3);
/// Lambda's longest function timeout (900 seconds).
pub const MAX_TIMEOUT: Duration = Duration::from_mins(15);

/// How a function is invoked with an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// POST the event to this URL; a 2xx answer succeeds and its body is the response.
    Url(String),
    /// Lambda's Invoke API at this base URL (`POST {base}/2015-03-31/functions/{name}/invocations`,
    /// or the URL as given when it already names that path, as the Lambda Runtime Interface
    /// Emulator's `.../functions/function/invocations`); `X-Amz-Function-Error` marks an error.
    InvokeUrl(String),
    /// Run this program (and arguments) per batch: the event on stdin, the response on
    /// stdout; a non-zero exit is an error.
    Command(Vec<String>),
}

impl Target {
    /// The config key naming this kind (`url`, `invoke_url`, `command`).
    pub fn kind(&self) -> &'static str {
        match self {
            Target::Url(_) => "url",
            Target::InvokeUrl(_) => "invoke_url",
            Target::Command(_) => "command",
        }
    }
}

/// One declared function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// The function's name (1 to 64 letters, digits, hyphens, underscores).
    pub name: String,
    /// How it is invoked.
    pub target: Target,
    /// How long one invocation may take before it counts as an error.
    pub timeout: Duration,
    /// The accounts whose mappings may invoke it (`accounts = [...]`); `None`, every account.
    /// A declared function belongs to no account, so this is what keeps another account from
    /// feeding it (a `command` function runs on the machine).
    pub accounts: Option<Vec<String>>,
}

impl Function {
    /// A function with Lambda's default timeout.
    pub fn new(name: impl Into<String>, target: Target) -> Self {
        Function {
            name: name.into(),
            target,
            timeout: DEFAULT_TIMEOUT,
            accounts: None,
        }
    }

    /// Whether a mapping of `account` may invoke this function.
    pub fn usable_by(&self, account: &str) -> bool {
        self.accounts
            .as_ref()
            .is_none_or(|accounts| accounts.iter().any(|a| a == account))
    }

    /// The function's unqualified ARN in a region and account.
    pub fn arn(&self, region: &str, account: &str) -> String {
        format!("arn:aws:lambda:{region}:{account}:function:{}", self.name)
    }

    /// Checks the name and timeout (Lambda's FunctionName pattern and Timeout range).
    pub fn check(&self) -> Result<(), String> {
        let ok = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'_';
        if self.name.is_empty() || self.name.len() > 64 || !self.name.bytes().all(ok) {
            return Err(format!(
                "function name `{}` must be 1 to 64 letters, digits, hyphens or underscores",
                self.name
            ));
        }
        if self.timeout.is_zero() || self.timeout > MAX_TIMEOUT {
            return Err(format!(
                "function `{}`: timeout must be 1 to 900 seconds",
                self.name
            ));
        }
        let account = |a: &String| a.len() == 12 && a.bytes().all(|b| b.is_ascii_digit());
        if let Some(bad) = self.accounts.iter().flatten().find(|a| !account(a)) {
            return Err(format!(
                "function `{}`: accounts must be 12-digit account ids, not `{bad}`",
                self.name
            ));
        }
        match &self.target {
            Target::Command(argv) if argv.is_empty() => Err(format!(
                "function `{}`: command must name a program",
                self.name
            )),
            Target::Url(u) | Target::InvokeUrl(u)
                if !u.starts_with("http://") && !u.starts_with("https://") =>
            {
                Err(format!(
                    "function `{}`: {} must be an http:// or https:// URL",
                    self.name,
                    self.target.kind()
                ))
            }
            _ => Ok(()),
        }
    }
}

/// The declared functions, looked up by name or ARN.
#[derive(Debug, Clone, Default)]
pub struct Functions {
    all: Vec<Function>,
}

impl Functions {
    pub fn new(all: Vec<Function>) -> Self {
        Functions { all }
    }

    /// The function a `FunctionName` names: its name, its ARN
    /// (`arn:aws:lambda:REGION:ACCOUNT:function:NAME`) in this region and account, or the
    /// partial ARN `ACCOUNT:function:NAME`. Qualified names (`:alias`, `:version`) name none.
    pub fn resolve(&self, name_or_arn: &str, region: &str, account: &str) -> Option<&Function> {
        let name = if let Some(rest) = name_or_arn.strip_prefix("arn:aws:lambda:") {
            rest.strip_prefix(region)?
                .strip_prefix(':')?
                .strip_prefix(account)?
                .strip_prefix(":function:")?
        } else if let Some(rest) = name_or_arn.strip_prefix(account) {
            rest.strip_prefix(":function:")?
        } else {
            name_or_arn
        };
        self.all
            .iter()
            .find(|f| f.name == name && f.usable_by(account))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_names_arns_and_partial_arns() {
        let fs = Functions::new(vec![Function::new(
            "orders",
            Target::Url("http://x/".into()),
        )]);
        let by = |n| {
            fs.resolve(n, "us-east-1", "000000000000")
                .map(|f| f.name.as_str())
        };
        assert_eq!(by("orders"), Some("orders"));
        assert_eq!(
            by("arn:aws:lambda:us-east-1:000000000000:function:orders"),
            Some("orders")
        );
        assert_eq!(by("000000000000:function:orders"), Some("orders"));
        assert_eq!(
            by("arn:aws:lambda:eu-west-1:000000000000:function:orders"),
            None
        );
        assert_eq!(by("orders:1"), None);
        assert_eq!(by("other"), None);
    }

    #[test]
    fn checks_names_timeouts_and_targets() {
        let mut f = Function::new("a_b-1", Target::Command(vec!["sh".into()]));
        assert_eq!(f.check(), Ok(()));
        f.timeout = Duration::from_secs(901);
        assert!(f.check().is_err());
        let bad = Function::new("a b", Target::Url("http://x".into()));
        assert!(bad.check().is_err());
        assert!(Function::new("a", Target::Command(vec![])).check().is_err());
        assert!(Function::new("a", Target::InvokeUrl("ftp://x".into()))
            .check()
            .is_err());
    }
}
