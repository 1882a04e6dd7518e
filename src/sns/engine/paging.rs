//! List pages and their NextToken. SNS's tokens are opaque, and standard padded base64 as
//! AWS's are (some clients decode them): this one is the base64 of the first key of the
//! next page, so a client cannot mistake it for an ARN, and a token that does not decode to
//! a key of the listing asked for is SNS's `InvalidParameter`.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;

use crate::sns::error::{SnsError, SnsResult};

/// At most this many topics or subscriptions per List page (SNS's page size).
pub const PAGE: usize = 100;

/// The token that resumes a listing at `key`.
pub fn token(key: &str) -> String {
    STANDARD.encode(key.as_bytes())
}

/// The key a token resumes at, if it is one this listing (every key starting `lead`) made.
pub fn resume_at(token: &str, lead: &str) -> SnsResult<String> {
    STANDARD
        .decode(token.as_bytes())
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .filter(|key| key.starts_with(lead))
        .ok_or_else(|| SnsError::invalid("NextToken"))
}

/// One page of `range` (every key starting `lead`, in order) after `next_token`, and the
/// token of the next page.
pub fn page<'a, T: 'a>(
    range: impl Iterator<Item = (&'a String, &'a T)>,
    lead: &str,
    next_token: Option<&str>,
) -> SnsResult<(Vec<&'a T>, Option<String>)> {
    let from = next_token.map(|t| resume_at(t, lead)).transpose()?;
    let mut items = range.filter(|(k, _)| from.as_ref().is_none_or(|f| *k >= f));
    let page: Vec<(&String, &T)> = items.by_ref().take(PAGE).collect();
    let next = items.next().map(|(k, _)| token(k));
    Ok((page.into_iter().map(|(_, v)| v).collect(), next))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_resume_only_their_own_listing() {
        let t = token("arn:aws:sns:us-east-1:000000000000:b");
        assert!(!t.contains("arn:"));
        assert_eq!(
            resume_at(&t, "arn:aws:sns:us-east-1:000000000000:").unwrap(),
            "arn:aws:sns:us-east-1:000000000000:b"
        );
        for bad in [
            "arn:aws:sns:us-east-1:000000000000:b",
            "!!",
            &token("other"),
        ] {
            assert_eq!(
                resume_at(bad, "arn:aws:sns:us-east-1:000000000000:")
                    .unwrap_err()
                    .message,
                "Invalid parameter: NextToken"
            );
        }
    }
}
