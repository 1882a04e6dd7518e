//! The limits a policy must keep: its length, its number of keys, its value combinations.
//!
//! SNS (Filter policy constraints, SNS developer guide):
//! - at most 256 KB of policy text;
//! - at most 5 keys: every key under `MessageAttributes`, only top-level keys under
//!   `MessageBody` ("nested keys don't count"); a key named in several `$or` alternatives
//!   counts once \[unverified\];
//! - at most 150 combinations. The guide multiplies the value counts of every array; for a
//!   nested key each array weighs its nesting depth times its value count (the guide's own
//!   example: `3 x 4 x 2 x 3 x 1 x 3 = 216` for arrays of 4, 3 and 3 values at depths 3, 2
//!   and 1), and `$or` adds its branches' products. AWS refused 152 and 160 and accepted
//!   exactly 150 computed this way (LocalStack's AWS-validated `test_policy_complexity_with_or`).
//!
//! Lambda: a pattern is at most 4096 characters (the `Filter.Pattern` length constraint in
//! Lambda's API reference) and a mapping has at most 5 filters by default (quota, up to 10 on
//! request); Lambda documents no key or combination limit, so none is applied.

use super::errors::{PatternError, PatternErrorKind};
use super::parse::Branch;
use super::Dialect;

pub const SNS_MAX_POLICY_BYTES: usize = 256 * 1024;
pub const SNS_MAX_KEYS: usize = 5;
pub const SNS_MAX_COMBINATIONS: u64 = 150;
pub const LAMBDA_MAX_PATTERN_CHARS: usize = 4096;
/// Lambda's default quota of filters per event source mapping.
pub const LAMBDA_DEFAULT_MAX_FILTERS: usize = 5;
/// sqslite's own bound on `$or` expansion for Lambda, where AWS states none: it keeps a
/// 4 KB pattern from forking into millions of branches.
pub const LAMBDA_MAX_BRANCHES: usize = 1024;

pub(crate) const TOO_COMPLEX: &str = "Filter policy is too complex";

/// The most branches `$or` may expand to before the policy is refused as too complex. For
/// SNS every branch adds at least one combination, so more than 150 branches is too complex.
pub(crate) fn max_branches(dialect: Dialect) -> usize {
    match dialect {
        Dialect::Sns => SNS_MAX_COMBINATIONS as usize,
        Dialect::Lambda => LAMBDA_MAX_BRANCHES,
    }
}

/// Refuses a policy text longer than the dialect takes, before it is parsed.
pub(crate) fn check_length(dialect: Dialect, text: &str) -> Result<(), PatternError> {
    let too_long = match dialect {
        Dialect::Sns => text.len() > SNS_MAX_POLICY_BYTES,
        Dialect::Lambda => text.chars().count() > LAMBDA_MAX_PATTERN_CHARS,
    };
    if !too_long {
        return Ok(());
    }
    // Neither service's text for this was found [unverified].
    let reason = match dialect {
        Dialect::Sns => "Filter policy is too long",
        Dialect::Lambda => "Member must have length less than or equal to 4096",
    };
    Err(PatternError::new(PatternErrorKind::TooLong, reason))
}

/// Refuses an SNS policy with too many keys or combinations; Lambda has neither limit.
pub(crate) fn check_policy(dialect: Dialect, branches: &[Branch]) -> Result<(), PatternError> {
    if dialect == Dialect::Lambda {
        return Ok(());
    }
    let mut keys: Vec<&str> = branches.iter().flatten().map(|f| f.top.as_str()).collect();
    keys.sort_unstable();
    keys.dedup();
    if keys.len() > SNS_MAX_KEYS {
        return Err(PatternError::new(
            PatternErrorKind::TooManyKeys,
            "Filter policy can not have more than 5 keys",
        ));
    }
    if combinations(branches) > SNS_MAX_COMBINATIONS {
        return Err(PatternError::new(PatternErrorKind::TooComplex, TOO_COMPLEX));
    }
    Ok(())
}

/// SNS's combination count: the sum over branches of the product of depth × values per key.
pub(crate) fn combinations(branches: &[Branch]) -> u64 {
    branches
        .iter()
        .map(|branch| {
            branch.iter().fold(1u64, |acc, f| {
                acc.saturating_mul((f.depth as u64).saturating_mul(f.matchers.len() as u64))
            })
        })
        .fold(0u64, u64::saturating_add)
}
