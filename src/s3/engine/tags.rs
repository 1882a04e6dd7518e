//! Tag sets as S3 accepts them (S3 User Guide, "Categorizing your storage using tags"; bucket
//! tagging's limits from "Using cost allocation S3 bucket tags"): at most 10 on an object and
//! 50 on a bucket, keys of 1 to 128 characters, values of at most 256, no key twice, no key in
//! the `aws:` prefix AWS reserves.

use super::error::{Refusal, Result};

/// A tag set, in the order given.
pub type Tags = Vec<(String, String)>;

/// Tags an object may carry.
pub const OBJECT_TAGS: usize = 10;
/// Tags a bucket may carry.
pub const BUCKET_TAGS: usize = 50;

/// `tags` checked against S3's rules, with at most `most` of them.
pub fn check(tags: Tags, most: usize) -> Result<Tags> {
    if tags.len() > most {
        let what = if most == OBJECT_TAGS {
            "Object"
        } else {
            "Bucket"
        };
        return Err(Refusal::InvalidTag(format!(
            "{what} tags cannot be greater than {most}"
        )));
    }
    for (i, (key, value)) in tags.iter().enumerate() {
        if key.is_empty() || key.chars().count() > 128 {
            return Err(Refusal::InvalidTag(
                "The TagKey you have provided is invalid".into(),
            ));
        }
        if value.chars().count() > 256 {
            return Err(Refusal::InvalidTag(
                "The TagValue you have provided is invalid".into(),
            ));
        }
        if key.starts_with("aws:") {
            return Err(Refusal::InvalidTag(
                "System tags cannot be added/updated by requester".into(),
            ));
        }
        if tags[..i].iter().any(|(k, _)| k == key) {
            return Err(Refusal::InvalidTag(
                "Cannot provide multiple Tags with the same key".into(),
            ));
        }
    }
    Ok(tags)
}

/// The tags of an `x-amz-tagging` header (`k1=v1&k2=v2`, URL-encoded).
pub fn from_query(text: &str) -> Result<Tags> {
    let tags = form_urlencoded::parse(text.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    check(tags, OBJECT_TAGS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(k: &str, v: &str) -> (String, String) {
        (k.to_owned(), v.to_owned())
    }

    #[test]
    fn the_limits() {
        let ten: Tags = (0..10).map(|i| tag(&i.to_string(), "v")).collect();
        assert_eq!(check(ten.clone(), OBJECT_TAGS).unwrap().len(), 10);
        let mut eleven = ten;
        eleven.push(tag("x", "y"));
        let refused = |tags, most| match check(tags, most) {
            Err(Refusal::InvalidTag(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            refused(eleven.clone(), OBJECT_TAGS),
            "Object tags cannot be greater than 10"
        );
        assert_eq!(check(eleven, BUCKET_TAGS).unwrap().len(), 11);
        let twice = vec![tag("k", "1"), tag("k", "2")];
        assert_eq!(
            refused(twice, OBJECT_TAGS),
            "Cannot provide multiple Tags with the same key"
        );
        assert!(check(vec![tag(&"k".repeat(129), "")], 10).is_err());
        assert!(check(vec![tag("k", &"v".repeat(257))], 10).is_err());
        assert!(check(vec![tag("aws:x", "v")], 10).is_err());
        let parsed = from_query("a=1&b=two%20words&c=").unwrap();
        assert_eq!(
            parsed,
            vec![tag("a", "1"), tag("b", "two words"), tag("c", "")]
        );
    }
}
