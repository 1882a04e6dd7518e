//! Condition helpers: dates, CIDRs and ARNs, and how operator names are taken apart.

use super::*;

#[test]
fn dates_cidrs_and_arns() {
    assert_eq!(iso8601(1_700_000_000_000), "2023-11-14T22:13:20Z");
    assert_eq!(date(&iso8601(1_700_000_000_000)), Some(1_700_000_000_000));
    assert_eq!(date("1970-01-02"), Some(86_400_000));
    assert_eq!(date("1970-01-01T01:00:00Z"), Some(3_600_000));
    assert_eq!(date("1970-01-01T01:00:00.250+01:00"), Some(0));
    assert_eq!(date("86400"), Some(86_400_000));
    assert_eq!(date("1970-13-01"), None);
    let ip = |s: &str| s.parse::<IpAddr>().unwrap();
    assert_eq!(in_cidr(ip("10.1.2.3"), "10.0.0.0/8"), Some(true));
    assert_eq!(in_cidr(ip("11.1.2.3"), "10.0.0.0/8"), Some(false));
    assert_eq!(in_cidr(ip("10.1.2.3"), "0.0.0.0/0"), Some(true));
    assert_eq!(in_cidr(ip("::1"), "::1"), Some(true));
    assert_eq!(in_cidr(ip("::1"), "10.0.0.0/8"), Some(false));
    assert_eq!(in_cidr(ip("::1"), "nonsense"), None);
    assert!(arn_matches(
        "arn:aws:sqs:*:1:q-*",
        "arn:aws:sqs:eu-west-1:1:q-a"
    ));
    assert!(!arn_matches(
        "arn:aws:sqs:*:1:q",
        "arn:aws:sqs:eu-west-1:2:q"
    ));
}

#[test]
fn operators_are_taken_apart() {
    let op = Operator::parse("ForAllValues:StringNotLikeIfExists");
    assert_eq!(op.kind, Kind::StringLike);
    assert!(op.negated && op.if_exists && op.set == Some(Set::AllValues));
    assert_eq!(
        Operator::parse("NumericLessThanEquals").kind,
        Kind::Numeric(Cmp::Le)
    );
    assert_eq!(Operator::parse("DateNotEquals").kind, Kind::Date(Cmp::Eq));
    assert_eq!(Operator::parse("BinaryEquals").kind, Kind::Unsupported);
    assert_eq!(Operator::parse("Null").kind, Kind::Null);
}
