//! What an object's request said of it, returned on GetObject and HeadObject; GetObject's
//! `response-*` parameters override it.

use s3s::dto::{GetObjectOutput, HeadObjectOutput, Metadata};

use super::timestamp;
use crate::s3::engine::object::Meta;

/// S3's Content-Type for an object stored without one.
pub const DEFAULT_TYPE: &str = "binary/octet-stream";

/// The stored headers into one output type (GetObject's and HeadObject's share the names).
macro_rules! fill {
    ($output:expr, $meta:expr) => {{
        let meta: &Meta = $meta;
        $output.content_type = Some(
            meta.content_type
                .clone()
                .unwrap_or_else(|| DEFAULT_TYPE.into()),
        );
        $output.content_encoding.clone_from(&meta.content_encoding);
        $output
            .content_disposition
            .clone_from(&meta.content_disposition);
        $output.content_language.clone_from(&meta.content_language);
        $output.cache_control.clone_from(&meta.cache_control);
        $output.expires = meta.expires.map(timestamp);
        $output.metadata = user_metadata(meta);
    }};
}

/// The user metadata S3 returns, none when there is none.
fn user_metadata(meta: &Meta) -> Option<Metadata> {
    (!meta.metadata.is_empty()).then(|| meta.metadata.iter().cloned().collect())
}

/// GetObject's headers.
pub fn get(output: &mut GetObjectOutput, meta: &Meta) {
    fill!(output, meta);
}

/// HeadObject's headers.
pub fn head(output: &mut HeadObjectOutput, meta: &Meta) {
    fill!(output, meta);
}

/// GetObject's `response-content-type`, `response-cache-control`,
/// `response-content-disposition`, `response-content-encoding` and
/// `response-content-language`, over what is stored.
pub fn overrides(
    output: &mut GetObjectOutput,
    content_type: Option<&String>,
    rest: [Option<&String>; 4],
) {
    if let Some(t) = content_type {
        output.content_type = Some(t.clone());
    }
    let [cache, disposition, encoding, language] = rest;
    let targets = [
        (&mut output.cache_control, cache),
        (&mut output.content_disposition, disposition),
        (&mut output.content_encoding, encoding),
        (&mut output.content_language, language),
    ];
    for (target, given) in targets {
        if let Some(value) = given {
            *target = Some(value.clone());
        }
    }
}
