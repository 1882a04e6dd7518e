//! Message bodies and attributes against SQS's rules and wording: characters, sizes, names,
//! types and tokens.

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
