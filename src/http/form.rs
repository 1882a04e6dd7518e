//! Form encoding (`application/x-www-form-urlencoded`), read the same way by the Query
//! decoders and the signature check, so what a signature covers is what an action reads.

use std::borrow::Cow;

/// One form-encoded name or value (`+` is a space, `%XX` a byte, invalid UTF-8 replaced):
/// borrowed when there is nothing to decode, which is the common case. The signature check
/// (`auth::parse::query_pairs`) reads the query string with this same decoding,
/// the protocols their forms.
pub fn decode(raw: &[u8]) -> Cow<'_, str> {
    if !raw.iter().any(|&b| b == b'%' || b == b'+') {
        return String::from_utf8_lossy(raw);
    }
    // `raw` holds no `&` or `=`, so it parses as exactly one name.
    form_urlencoded::parse(raw)
        .next()
        .map_or(Cow::Borrowed(""), |(name, _)| Cow::Owned(name.into_owned()))
}
