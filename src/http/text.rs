//! Text helpers: splitting on one ASCII byte with plain loops (hosts, queue URLs and paths are split on
//! every request, and `str::split`'s char searcher cost more to set up than these short scans), and
//! the bound on the error messages every service answers.

use std::borrow::Cow;

/// `split_once` on an ASCII byte (a callgrind profile put the char searcher's version at
/// 1,000 instructions a request).
pub fn split_at_byte(text: &str, byte: u8) -> Option<(&str, &str)> {
    let i = text.bytes().position(|b| b == byte)?;
    Some((&text[..i], &text[i + 1..]))
}

/// `str::split` on an ASCII byte, with [`split_at_byte`]'s loop.
pub fn pieces(text: &str, byte: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        let (head, tail) =
            split_at_byte(current, byte).map_or((current, None), |(h, t)| (h, Some(t)));
        rest = tail;
        Some(head)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_splitting_matches_str_split() {
        for text in ["", "/", "a", "/a//b/", "a/b/c", "ünï/cödé/"] {
            let ours: Vec<&str> = pieces(text, b'/').collect();
            let std: Vec<&str> = text.split('/').collect();
            assert_eq!(ours, std, "{text:?}");
        }
        assert_eq!(split_at_byte("a:b:c", b':'), Some(("a", "b:c")));
        assert_eq!(split_at_byte("abc", b':'), None);
    }
}

/// The most of an error message any service answers: a value a caller sent is quoted in its
/// message (an ARN, a name), and a hostile one of megabytes would otherwise come back whole.
/// [unverified] How much of a bad value AWS quotes is not recorded.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// `message` cut to [`MAX_MESSAGE_BYTES`] at a character boundary, `…` marking the cut;
/// a shorter one unchanged.
pub fn bounded_message<'a>(message: impl Into<Cow<'a, str>>) -> Cow<'a, str> {
    let message = message.into();
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let mut end = MAX_MESSAGE_BYTES - '…'.len_utf8();
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &message[..end]))
}

#[cfg(test)]
mod bounded_tests {
    use super::*;

    #[test]
    fn long_messages_are_cut_at_a_character_boundary() {
        assert_eq!(bounded_message("short"), "short");
        let long = "é".repeat(5000);
        let cut = bounded_message(long.as_str());
        assert!(
            cut.len() <= MAX_MESSAGE_BYTES && cut.ends_with('…'),
            "{}",
            cut.len()
        );
    }
}
