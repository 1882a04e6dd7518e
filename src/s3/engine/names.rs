//! Bucket names as S3 allows them (S3 User Guide, "General purpose bucket naming rules"),
//! one rule for the router's unsigned claim, s3s's path parsing and CreateBucket.

/// Prefixes S3 reserves.
const RESERVED_PREFIXES: &[&str] = &["xn--", "sthree-", "amzn-s3-demo-"];
/// Suffixes S3 reserves (access point aliases, Object Lambda, directory and table buckets).
const RESERVED_SUFFIXES: &[&str] = &["-s3alias", "--ol-s3", ".mrap", "--x-s3", "--table-s3"];

/// 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or
/// digit, no two dots together, not an IPv4 address, no reserved prefix or suffix.
pub fn valid_bucket(name: &str) -> bool {
    let bytes = name.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    (3..=63).contains(&bytes.len())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-'))
        && edge(bytes.first())
        && edge(bytes.last())
        && !name.contains("..")
        && name.parse::<std::net::Ipv4Addr>().is_err()
        && !RESERVED_PREFIXES.iter().any(|p| name.starts_with(p))
        && !RESERVED_SUFFIXES.iter().any(|s| name.ends_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_naming_rules() {
        for good in ["abc", "my-bucket.v2", "0ab", &"a".repeat(63), "a-b-c"] {
            assert!(valid_bucket(good), "{good}");
        }
        for bad in [
            "ab",
            &"a".repeat(64),
            "My-Bucket",
            "a_b",
            "-ab",
            "ab-",
            ".ab",
            "a..b",
            "192.168.5.4",
            "xn--abc",
            "sthree-x",
            "amzn-s3-demo-x",
            "x-s3alias",
            "x--ol-s3",
            "x.mrap",
            "x--x-s3",
            "x--table-s3",
        ] {
            assert!(!valid_bucket(bad), "{bad}");
        }
    }
}
