//! Why a check failed, in the words a team acts on. A failure that says only what did not
//! happen ("0 of 1 in payments-dlq") sends the team to the dashboard to find out why; the
//! drill has the answer at hand: where its messages are and how many receives they took (at
//! the look that decided the check), and the dead-letter advisor's findings on those queues
//! ("`payments` has no RedrivePolicy").

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::look::{self, Look};
use crate::drill::Endpoint;

/// What a failed check is about: its kind of message (`None`: every kind of this run) and
/// the queue it reads, if one.
#[derive(Debug, Clone, Default)]
pub struct About {
    /// The kind, as the drill's messages carry it.
    pub kind: Option<String>,
    /// The queue.
    pub queue: Option<String>,
}

/// Where the drill's messages were at one look: the words, and the queues they name.
#[derive(Debug, Clone, Default)]
pub struct Whereabouts {
    /// `the 1 `poison` message is in `payments`, received 11 times`.
    pub words: String,
    /// The queues holding them, and the check's own.
    pub queues: BTreeSet<String>,
}

/// Where this run's messages `about` concerns are at `look`, by queue and kind, with the
/// receives they took.
pub fn whereabouts(look: &Look, run: &str, about: &About) -> Whereabouts {
    let kind = about.kind.as_deref().filter(|k| *k != "*");
    // (queue, kind) -> (messages, fewest receives, most receives)
    let mut groups: BTreeMap<(&str, String), (u64, u64, u64)> = BTreeMap::new();
    for (name, q) in &look.queues {
        for m in look::ours(q, run, kind.unwrap_or("*")) {
            let receives = m["receive_count"].as_u64().unwrap_or(0);
            let k = look::kind_of(m).unwrap_or_default();
            let g = groups
                .entry((name.as_str(), k))
                .or_insert((0, receives, receives));
            *g = (g.0 + 1, g.1.min(receives), g.2.max(receives));
        }
    }
    let mut queues: BTreeSet<String> = groups.keys().map(|(q, _)| (*q).to_owned()).collect();
    queues.extend(about.queue.clone());
    let what = kind.map_or_else(|| "messages".to_owned(), |k| format!("`{k}` messages"));
    if groups.is_empty() {
        return Whereabouts {
            words: format!("where: none of this run's {what} is left in the drill's queues"),
            queues,
        };
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|((queue, kind), (n, least, most))| {
            let times = if least == most {
                format!("{least} time(s)")
            } else {
                format!("{least} to {most} times")
            };
            format!("{n} `{kind}` message(s) in `{queue}`, received {times}")
        })
        .collect();
    Whereabouts {
        words: format!("where: {}", parts.join("; ")),
        queues,
    }
}

/// The advisor's findings on `queues`, each as `advisor on `q`: what (rule)`; none when the
/// server gives no advice (its answer is a help, never a reason to fail the drill).
pub async fn advice(ep: &Endpoint, queues: &BTreeSet<String>) -> Vec<String> {
    let Ok(answer) = ep.get("/_sqslite/advice").await else {
        return Vec::new();
    };
    let findings = answer["findings"].as_array().cloned().unwrap_or_default();
    findings
        .iter()
        .filter(|f| f["queue"].as_str().is_some_and(|q| queues.contains(q)))
        .map(|f: &Value| {
            format!(
                "advisor on `{}`: {} ({})",
                f["queue"].as_str().unwrap_or_default(),
                f["message"].as_str().unwrap_or_default(),
                f["rule"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// A failed check's detail with where its messages were and the advisor's findings.
pub async fn failure(ep: &Endpoint, detail: &str, seen: &Whereabouts) -> String {
    let mut parts = vec![detail.to_owned(), seen.words.clone()];
    parts.extend(advice(ep, &seen.queues).await);
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{whereabouts, About};
    use crate::drill::file::look::{Look, QueueLook};

    fn message(run: &str, kind: &str, receives: u64) -> serde_json::Value {
        json!({
            "body": "x",
            "receive_count": receives,
            "message_attributes": {
                "sqslite-drill-run": {"StringValue": run},
                "sqslite-drill": {"StringValue": kind},
            },
        })
    }

    #[test]
    fn whereabouts_group_by_queue_and_kind_with_their_receives() {
        let mut look = Look::default();
        let payments = QueueLook {
            messages: vec![
                message("r", "poison", 11),
                message("r", "valid", 1),
                message("r", "valid", 3),
                message("other", "poison", 2),
            ],
            ..QueueLook::default()
        };
        look.queues.insert("payments".into(), payments);
        look.queues
            .insert("payments-dlq".into(), QueueLook::default());
        let about = About {
            kind: Some("poison".into()),
            queue: Some("payments-dlq".into()),
        };
        let seen = whereabouts(&look, "r", &about);
        assert_eq!(
            seen.words,
            "where: 1 `poison` message(s) in `payments`, received 11 time(s)"
        );
        assert_eq!(
            seen.queues.iter().collect::<Vec<_>>(),
            ["payments", "payments-dlq"]
        );
        let all = whereabouts(&look, "r", &About::default()).words;
        assert!(
            all.contains("2 `valid` message(s) in `payments`, received 1 to 3 times"),
            "{all}"
        );
        let none = whereabouts(&look, "r2", &about);
        assert_eq!(
            none.words,
            "where: none of this run's `poison` messages is left in the drill's queues"
        );
    }
}
