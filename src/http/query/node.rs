//! A request's Query parameters as a tree, built lazily: a node holds the parameters below
//! it as `(rest of the name, value)`, and a member's items or entries are split off only when
//! a type asks for that member.

/// How a member travels in a form, as the service's [`super::Dialect`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// `Member=value`.
    Scalar,
    /// Items under this prefix: `Prefix.N` (strings) or `Prefix.N.Member` (structures).
    List(&'static str),
    /// Entries under the first prefix, keyed by the second name: `Prefix.N.<key>` with the
    /// value at `Prefix.N.Value[.Member]` (AWS Query's flattened maps, as SQS sends them).
    Map(&'static str, &'static str),
}

/// One parameter and those below it: `Prefix.N=value` has `value`, `Prefix.N.rest=v` is the
/// child `(rest, v)`.
#[derive(Debug, Clone)]
pub struct Node<'p> {
    /// The member's name, for error messages.
    pub name: &'static str,
    /// The parameter's own value, if it was sent.
    pub value: Option<&'p str>,
    /// The parameters below it, their names relative to it, in arrival order.
    pub children: Vec<(&'p str, &'p str)>,
}

impl<'p> Node<'p> {
    /// The whole request, from its `(name, value)` parameters in arrival order.
    pub fn root(params: impl IntoIterator<Item = (&'p str, &'p str)>) -> Self {
        Node {
            name: "",
            value: None,
            children: params.into_iter().collect(),
        }
    }

    /// A scalar member's value.
    pub fn leaf(name: &'static str, value: &'p str) -> Self {
        Node {
            name,
            value: Some(value),
            children: Vec::new(),
        }
    }

    /// The last value sent for a direct child.
    pub fn child(&self, key: &str) -> Option<&'p str> {
        self.children
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    }

    /// Whether any child's name continues `prefix` with a `.`.
    pub fn has_prefix(&self, prefix: &str) -> bool {
        self.children
            .iter()
            .any(|(k, _)| k.strip_prefix(prefix).is_some_and(|r| r.starts_with('.')))
    }

    /// The items of `Prefix.N…`, in numeric order of N (indexes may be sparse or unordered).
    pub fn items(&self, name: &'static str, prefix: &str) -> Vec<Node<'p>> {
        let mut indexed: Vec<(u64, Option<&'p str>, &'p str)> = self
            .children
            .iter()
            .filter_map(|&(k, v)| {
                let rest = k.strip_prefix(prefix)?.strip_prefix('.')?;
                let (index, tail) = match rest.split_once('.') {
                    Some((i, t)) => (i, Some(t)),
                    None => (rest, None),
                };
                Some((index.parse().ok()?, tail, v))
            })
            .collect();
        indexed.sort_by_key(|&(n, _, _)| n);
        let mut items: Vec<Node<'p>> = Vec::new();
        let mut last = None;
        for (n, tail, v) in indexed {
            if last != Some(n) {
                items.push(Node {
                    name,
                    value: None,
                    children: Vec::new(),
                });
                last = Some(n);
            }
            let item = items.last_mut().expect("pushed above");
            match tail {
                None => item.value = Some(v),
                Some(t) => item.children.push((t, v)),
            }
        }
        items
    }

    /// The `(key, value)` entries of a flattened map; entries without a key are skipped.
    pub fn entries(&self, name: &'static str, prefix: &str, key: &str) -> Vec<(&'p str, Node<'p>)> {
        self.items(name, prefix)
            .into_iter()
            .filter_map(|entry| {
                let k = entry.child(key)?;
                let value = Node {
                    name,
                    value: entry.child("Value"),
                    children: entry
                        .children
                        .iter()
                        .filter_map(|&(c, v)| Some((c.strip_prefix("Value.")?, v)))
                        .collect(),
                };
                Some((k, value))
            })
            .collect()
    }

    /// The node's own text; a node sent only with children has none.
    pub fn text(&self) -> &'p str {
        self.value.unwrap_or_default()
    }
}
