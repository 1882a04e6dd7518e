//! `--report FILE.html`: one self-contained page (no network, no external script) with the
//! verdict, each queue's timeline on the server clock with every step, fault and alarm
//! firing or clearing marked where it happened, and the dead letters grouped by body shape as
//! the dashboard groups them. The charts are the dashboard's own code (`chart.js`), embedded.

use serde_json::{json, Value};

use super::engine::Drill;

/// The page's own script, after the chart's.
const SCRIPT: &str = include_str!("report.js");

/// The page's styles besides the chart's: the dashboard's colours, a plain table.
const STYLE: &str = "
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0969da; --ok: #1a7f37;
  --bad: #cf222e; --bad-bg: #ffebe9; --warn-bg: #fff8c5; }
body { font: 14px system-ui, sans-serif; color: var(--fg); margin: 24px auto; max-width: 1000px; padding: 0 16px; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { font-size: 17px; margin-top: 28px; }
.muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: 4px 8px;
  border-bottom: 1px solid var(--line); vertical-align: top; }
.badge { display: inline-block; padding: 0 8px; border: 1px solid var(--line); border-radius: 10px; font-weight: 600; }
.badge.ok { color: var(--ok); } .badge.alarm { background: var(--bad-bg); color: var(--bad); border-color: var(--bad); }
code { font-size: 12px; word-break: break-all; }
";

/// The alarm firings and clearings the looks saw, as chart marks.
fn alarm_marks(drill: &Drill<'_>) -> Vec<Value> {
    let mut states: std::collections::BTreeMap<(String, String), String> =
        std::collections::BTreeMap::default();
    let mut marks = Vec::new();
    for look in &drill.history {
        for a in &look.alarms {
            let (Some(kind), Some(queue), Some(state)) =
                (a["kind"].as_str(), a["queue"].as_str(), a["state"].as_str())
            else {
                continue;
            };
            if !drill.names.iter().any(|n| n == queue) {
                continue;
            }
            let key = (kind.to_owned(), queue.to_owned());
            let before = states.insert(key, state.to_owned());
            if before.as_deref().unwrap_or("OK") != state {
                marks.push(json!({"kind": "alarm", "t": look.t, "alarm": kind, "state": state, "queue": queue}));
            }
        }
    }
    marks
}

/// Each queue's samples, one per look.
fn timelines(drill: &Drill<'_>) -> Vec<Value> {
    drill
        .names
        .iter()
        .map(|name| {
            let samples: Vec<Value> = drill
                .history
                .iter()
                .filter_map(|l| {
                    let q = l.queues.get(name)?;
                    Some(json!({
                        "t": l.t, "visible": q.visible, "in_flight": q.in_flight,
                        "delayed": q.delayed, "oldest_message_age_seconds": q.oldest_age,
                    }))
                })
                .collect();
            json!({"name": name, "samples": samples})
        })
        .collect()
}

/// The dead letters of each queue that is some queue's dead-letter queue, grouped by body
/// shape: read before the rollback takes the drill's messages away.
pub async fn dead_letters(drill: &Drill<'_>) -> Vec<Value> {
    let mut groups = Vec::new();
    for name in &drill.names {
        let Ok(info) = drill.ep.get(&format!("/_sqslite/queues/{name}")).await else {
            continue;
        };
        let is_dlq = info["dead_letter_sources"]
            .as_array()
            .is_some_and(|s| !s.is_empty());
        if !is_dlq {
            continue;
        }
        if let Ok(g) = drill
            .ep
            .get(&format!("/_sqslite/queues/{name}/dead-letters"))
            .await
        {
            if g["total"].as_u64().unwrap_or(0) > 0 {
                groups.push(json!({"queue": name, "total": g["total"], "by_shape": g["by_shape"]}));
            }
        }
    }
    groups
}

/// The page.
pub fn page(drill: &Drill<'_>, dead_letters: &[Value]) -> String {
    let meta = &drill.c.file.drill;
    let mut marks: Vec<Value> = drill
        .marks
        .iter()
        .map(|m| json!({"kind": m.kind, "t": m.t, "label": m.label}))
        .collect();
    marks.extend(alarm_marks(drill));
    let cases: Vec<Value> = drill
        .verdict
        .cases
        .iter()
        .map(|c| json!({"name": c.name, "passed": c.passed, "detail": c.detail, "at": c.at}))
        .collect();
    let data = json!({
        "name": meta.name,
        "description": meta.description,
        "run": drill.run,
        "passed": drill.verdict.passed(),
        "manual": drill.manual,
        "from": drill.history.first().map_or(0, |l| l.t),
        "to": drill.history.last().map_or(0, |l| l.t),
        "queues": timelines(drill),
        "marks": marks,
        "cases": cases,
        "dead_letters": dead_letters,
    });
    // `<` written as an escape, so no value can close the script element.
    let data = data.to_string().replace('<', "\\u003c");
    let title = html(&meta.name);
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Drill: {title}</title>\n\
         <style>{STYLE}{}</style></head>\n<body>\n<h1>Drill: {title}</h1>\n<p class=\"muted\">{}</p>\n\
         <p id=\"verdict\"></p>\n<h2>Checks</h2>\n<div id=\"checks\"></div>\n\
         <h2>Timeline</h2>\n<div id=\"timeline\"></div>\n<h2>Dead letters</h2>\n<div id=\"dead-letters\"></div>\n\
         <script>const DRILL = {data};</script>\n<script>{}</script>\n<script>{SCRIPT}</script>\n</body></html>\n",
        crate::admin::ui::CHART_STYLE,
        html(&meta.description),
        crate::admin::ui::CHART_SCRIPT,
    )
}

/// Text for HTML.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
