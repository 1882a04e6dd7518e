//! The send-time rules for a message's body and attributes: SQS's characters, sizes, data
//! types, numbers and tokens.

use super::message::{AttrData, AttrValue, MessageAttributes};
use crate::sqs::error::{ErrorKind, SqsError, SqsResult};

/// SQS counts the body plus every attribute's name, type and value toward the size limit.
pub fn size_of(body: &str, attributes: &MessageAttributes) -> usize {
    body.len()
        + attributes
            .iter()
            .map(|(name, v)| {
                name.len()
                    + v.data_type.len()
                    + match &v.data {
                        AttrData::String(s) => s.len(),
                        AttrData::Binary(b) => b.len(),
                    }
            })
            .sum::<usize>()
}

/// The characters SQS accepts in a body or string attribute (XML 1.0's set).
pub fn valid_chars(text: &str) -> bool {
    // Most bodies are printable ASCII: check bytes first, decode characters only otherwise.
    if text.as_bytes().chunks(64).all(plain_ascii) {
        return true;
    }
    text.chars().all(|c| {
        matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
    })
}

/// Whether every byte is printable ASCII, tab, LF or CR. No early exit inside a chunk: the
/// loop is then one the compiler vectorises (about 1 instruction a byte instead of 9).
#[inline]
fn plain_ascii(chunk: &[u8]) -> bool {
    let mut bad = 0u8;
    for &b in chunk {
        let control = u8::from(b < 0x20) & u8::from(!matches!(b, b'\t' | b'\n' | b'\r'));
        bad |= control | u8::from(b >= 0x7f);
    }
    bad == 0
}

/// A body's own rules, checked before its size against the queue's limit ([`check_size`]).
pub fn validate_contents(body: &str) -> SqsResult<()> {
    if body.is_empty() {
        return Err(SqsError::missing("MessageBody"));
    }
    if !valid_chars(body) {
        return Err(SqsError::of(ErrorKind::InvalidMessageContents));
    }
    Ok(())
}

/// `size` is [`size_of`] the body and its attributes.
pub fn check_size(size: usize, max_size: usize) -> SqsResult<()> {
    if size > max_size {
        return Err(SqsError::invalid_parameter(format!(
            "One or more parameters are invalid. Reason: Message must be shorter than {max_size} bytes."
        )));
    }
    Ok(())
}

pub use crate::sqs::engine::limits::MESSAGE_ATTRIBUTES as MAX_ATTRIBUTES;

/// SQS's rules for MessageAttributes: at most ten, each valid by name, type and value.
pub fn validate_attributes(attributes: &MessageAttributes) -> SqsResult<()> {
    if attributes.len() > MAX_ATTRIBUTES {
        return Err(SqsError::invalid_parameter(format!(
            "Number of message attributes [{}] exceeds the allowed maximum [{MAX_ATTRIBUTES}].",
            attributes.len()
        )));
    }
    for (name, value) in attributes {
        validate_attribute(name, value)?;
    }
    Ok(())
}

/// One attribute's rules: name characters and reserved prefixes, DataType, and a non-empty value of
/// that type.
fn validate_attribute(name: &str, value: &AttrValue) -> SqsResult<()> {
    let lower = name.to_ascii_lowercase();
    // Letters and digits of any script: SQS accepts `attr.1øßä` [aws-recorded].
    let name_ok = !name.is_empty()
        && name.chars().count() <= 256
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !name.contains("..");
    if !name_ok {
        return Err(SqsError::invalid_parameter(format!(
            "Message (user) attribute name '{name}' is invalid. Names can contain alphanumeric characters, hyphens, underscores and periods, must not start or end with a period or have consecutive periods, and may be up to 256 characters long."
        )));
    }
    if lower.starts_with("aws.") || lower.starts_with("amazon.") {
        return Err(SqsError::invalid_parameter(format!(
            "Message (user) attribute name '{name}' is invalid. Names must not start with AWS. or Amazon. (or any casing variant)."
        )));
    }
    let data_type = value.data_type.as_str();
    let base = data_type.split('.').next().unwrap_or_default();
    let label_ok = data_type.len() <= 256
        && data_type[base.len()..]
            .strip_prefix('.')
            .is_none_or(|label| !label.is_empty());
    if !matches!(base, "String" | "Number" | "Binary") || !label_ok {
        return Err(SqsError::invalid_parameter(format!(
            "The type of message (user) attribute '{name}' is invalid. You must use only the following supported type prefixes: Binary, Number, String."
        )));
    }
    match (&value.data, base) {
        (AttrData::String(s), "String" | "Number") if !s.is_empty() => {
            // A bad value is a bad parameter, unlike a bad body [aws-recorded: U+0008 and
            // U+000B give InvalidParameterValue]; the wording is ours (unverified).
            if !valid_chars(s) {
                return Err(SqsError::invalid_parameter(format!(
                    "Message (user) attribute '{name}' contains invalid characters. {}",
                    ErrorKind::InvalidMessageContents.default_message()
                )));
            }
            if base == "Number" && !is_number(s) {
                return Err(SqsError::invalid_parameter(format!(
                    "Can't cast the value of message (user) attribute '{name}' to a number."
                )));
            }
            Ok(())
        }
        (AttrData::Binary(b), "Binary") if !b.is_empty() => Ok(()),
        _ => {
            let kind = if base == "Binary" { "Binary" } else { "String" };
            Err(SqsError::invalid_parameter(format!(
                "Message (user) attribute '{name}' must contain a non-empty value of type '{kind}'."
            )))
        }
    }
}

/// SQS numbers: decimal, optional sign and exponent, at most 38 significant digits.
fn is_number(text: &str) -> bool {
    let Ok(value) = text.trim().parse::<f64>() else {
        return false;
    };
    let digits = text.bytes().take_while(|b| *b != b'e' && *b != b'E');
    let significant = digits.filter(u8::is_ascii_digit).count();
    value.is_finite() && significant <= 38 && !text.trim().eq_ignore_ascii_case("nan")
}

/// MessageGroupId, MessageDeduplicationId and ReceiveRequestAttemptId share one rule.
pub fn validate_token(parameter: &str, value: &str) -> SqsResult<()> {
    let ok = (1..=128).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_graphic());
    if ok {
        Ok(())
    } else {
        Err(SqsError::invalid_value(
            value,
            parameter,
            &format!("{parameter} can only include alphanumeric and punctuation characters. 1 to 128 in length."),
        ))
    }
}

/// A FIFO send without MessageDeduplicationId to a queue without content-based deduplication.
pub fn no_deduplication_id() -> SqsError {
    SqsError::invalid_parameter(
        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(t: &str, v: &str) -> AttrValue {
        AttrValue {
            data_type: t.into(),
            data: AttrData::String(v.into()),
        }
    }

    #[test]
    fn body_rules() {
        let validate_body = |body: &str, max: usize, attributes: &MessageAttributes| {
            validate_contents(body).and_then(|()| check_size(size_of(body, attributes), max))
        };
        let none = MessageAttributes::new();
        assert_eq!(
            validate_body("", 10, &none).unwrap_err().kind,
            ErrorKind::MissingParameter
        );
        assert_eq!(
            validate_body("a\u{1}", 10, &none).unwrap_err().kind,
            ErrorKind::InvalidMessageContents
        );
        assert!(validate_body("héllo 😀\r\n\t", 100, &none).is_ok());
        let err = validate_body("12345678901", 10, &none).unwrap_err();
        assert!(err.message.ends_with("shorter than 10 bytes."));
    }

    #[test]
    fn the_byte_check_agrees_with_the_character_rule_at_every_position() {
        let by_chars = |t: &str| {
            t.chars().all(|c| {
                matches!(c, '\u{9}' | '\u{A}' | '\u{D}' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
            })
        };
        for c in (0u32..0x300)
            .filter_map(char::from_u32)
            .chain(['\u{FFFE}', '😀'])
        {
            // Each character alone, first, at a 64-byte chunk's edge and last of 130.
            for at in [0, 63, 64, 129] {
                let mut text: String = "a".repeat(130);
                text.replace_range(at..=at, c.encode_utf8(&mut [0; 4]));
                assert_eq!(valid_chars(&text), by_chars(&text), "{c:?} at {at}");
            }
        }
    }

    #[test]
    fn size_counts_names_types_and_values() {
        let mut attrs = MessageAttributes::new();
        attrs.insert("ab".into(), string("String", "xyz"));
        assert_eq!(size_of("body", &attrs), 4 + 2 + 6 + 3);
    }

    #[test]
    fn attribute_rules() {
        let check = |name: &str, v: AttrValue| {
            let mut m = MessageAttributes::new();
            m.insert(name.into(), v);
            validate_attributes(&m)
        };
        assert!(check("ok.name-1", string("Number.float", "-3.5e10")).is_ok());
        assert!(check("attr.1øßä", string("String", "Valida")).is_ok());
        assert!(check("Invalid-§-attr", string("String", "v")).is_err());
        let err = check("n", string("String", "Invalid-\u{8},\u{b}")).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidParameterValue);
        assert!(check("AWS.x", string("String", "v")).is_err());
        assert!(check("a..b", string("String", "v")).is_err());
        assert!(check("n", string("Number", "abc")).is_err());
        assert!(check("n", string("Text", "abc")).is_err());
        let err = check("n", string("String", "")).unwrap_err();
        assert_eq!(
            err.message,
            "Message (user) attribute 'n' must contain a non-empty value of type 'String'."
        );
    }

    #[test]
    fn tokens() {
        assert!(validate_token("MessageGroupId", "a-b_c!~").is_ok());
        assert!(validate_token("MessageGroupId", "has space").is_err());
        assert!(validate_token("MessageGroupId", &"x".repeat(129)).is_err());
    }
}
