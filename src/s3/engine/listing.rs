//! Listing a bucket's keys as ListObjects and ListObjectsV2 page them: keys in UTF-8 binary
//! order after a marker, those under a prefix, keys that share a part up to the delimiter
//! rolled up into one common prefix, at most `max` entries (keys and common prefixes
//! together) a page.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use super::object::Object;

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct Query<'a> {
    /// Only keys starting with this.
    pub prefix: &'a str,
    /// Roll keys up to their first delimiter after the prefix.
    pub delimiter: Option<&'a str>,
    /// Only keys (and common prefixes) after this one.
    pub after: Option<&'a str>,
    /// Entries in a page, at most 1,000.
    pub max: usize,
}

/// One page.
#[derive(Debug, Default)]
pub struct Page {
    /// The keys listed, in order.
    pub objects: Vec<(String, Arc<Object>)>,
    /// The common prefixes, in order.
    pub prefixes: Vec<String>,
    /// Whether entries follow.
    pub truncated: bool,
    /// The last entry listed (a key or a common prefix), where the next page starts after.
    pub last: Option<String>,
}

/// A page of `objects` for `query`.
pub fn list(objects: &BTreeMap<String, Arc<Object>>, query: &Query<'_>) -> Page {
    let start = match query.after {
        Some(after) if after >= query.prefix => Bound::Excluded(after),
        _ => Bound::Included(query.prefix),
    };
    let mut page = Page::default();
    let mut count = 0;
    for (key, object) in objects.range::<str, _>((start, Bound::Unbounded)) {
        if !key.starts_with(query.prefix) {
            break;
        }
        let rolled = query.delimiter.filter(|d| !d.is_empty()).and_then(|d| {
            let rest = &key[query.prefix.len()..];
            rest.find(d)
                .map(|at| &key[..query.prefix.len() + at + d.len()])
        });
        if let Some(common) = rolled {
            if page.prefixes.last().map(String::as_str) == Some(common)
                || query
                    .after
                    .is_some_and(|a| a.starts_with(common) && a >= common)
            {
                continue;
            }
        }
        if count == query.max {
            page.truncated = true;
            break;
        }
        count += 1;
        if let Some(common) = rolled {
            page.prefixes.push(common.to_owned());
            page.last = Some(common.to_owned());
        } else {
            page.objects.push((key.clone(), object.clone()));
            page.last = Some(key.clone());
        }
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(keys: &[&str]) -> BTreeMap<String, Arc<Object>> {
        let object = Arc::new(Object {
            data: super::super::data::Data::default(),
            etag: String::new(),
            modified: 0,
            meta: super::super::object::Meta::default(),
            parts: None,
        });
        keys.iter()
            .map(|k| ((*k).to_owned(), object.clone()))
            .collect()
    }

    fn names(page: &Page) -> (Vec<&str>, Vec<&str>) {
        (
            page.objects.iter().map(|(k, _)| k.as_str()).collect(),
            page.prefixes.iter().map(String::as_str).collect(),
        )
    }

    #[test]
    fn prefixes_delimiters_and_pages() {
        let b = bucket(&["a", "docs/1", "docs/2", "docs/x/3", "img/1", "z"]);
        let all = Query {
            max: 1000,
            ..Query::default()
        };
        assert_eq!(list(&b, &all).objects.len(), 6);
        let rolled = Query {
            delimiter: Some("/"),
            ..all.clone()
        };
        let page = list(&b, &rolled);
        assert_eq!(names(&page), (vec!["a", "z"], vec!["docs/", "img/"]));
        let under = Query {
            prefix: "docs/",
            ..rolled.clone()
        };
        assert_eq!(
            names(&list(&b, &under)),
            (vec!["docs/1", "docs/2"], vec!["docs/x/"])
        );
        let mut query = Query { max: 2, ..rolled };
        let mut seen = Vec::new();
        loop {
            let page = list(&b, &query);
            let (keys, prefixes) = names(&page);
            seen.extend(keys.iter().chain(&prefixes).map(|s| (*s).to_owned()));
            if !page.truncated {
                break;
            }
            let last = page.last.unwrap();
            query.after = Some(Box::leak(last.into_boxed_str()));
        }
        seen.sort();
        assert_eq!(seen, ["a", "docs/", "img/", "z"]);
    }
}
