//! The method's steps: send and publish the drill's messages (tagged with the run and their
//! kind), upload objects (`upload`), add and clear fault rules, move or wait on the clock,
//! start a move task, change the sample consumer's rule, switch at-least-once delivery on or
//! off.

use std::time::Duration;

use serde_json::{json, Value};

use super::engine::{Drill, Mark};
use super::spec::Step;
use crate::drill::{KIND_ATTRIBUTE, RUN_ATTRIBUTE};

/// `{seq}` and `{run}` filled in.
pub(super) fn fill(template: &str, seq: u64, run: &str) -> String {
    template
        .replace("{seq}", &seq.to_string())
        .replace("{run}", run)
}

/// The default body: a JSON object the sample consumer takes.
pub(super) const BODY: &str = r#"{"drill":"{run}","seq":{seq}}"#;

impl Drill<'_> {
    /// Runs one step; `index` names its default deduplication ids.
    pub(super) async fn step(&mut self, step: &Step, index: usize) -> Result<(), String> {
        match step.action.get_ref().as_str() {
            "send" => self.send(step, index).await,
            "publish" => self.publish(step, index).await,
            "fault" => self.fault(step).await,
            "clear_faults" => self.clear_faults().await,
            "advance" => self.pass_time(step, true).await,
            "wait" => self.pass_time(step, false).await,
            "redrive" => self.redrive(step).await,
            "upload" => self.upload(step).await,
            "delivery" => self.delivery(step).await,
            "consumer" => {
                let rule = step
                    .consumer_rule
                    .as_ref()
                    .map_or("", |r| r.get_ref().as_str());
                let rule =
                    crate::drill::consumer::Rule::named(rule).ok_or("unknown consumer rule")?;
                self.consumer.set_rule(rule);
                Ok(())
            }
            other => Err(format!("unknown step `{other}`")),
        }
    }

    /// Sends `count` messages to a queue, ten at a time.
    async fn send(&mut self, step: &Step, index: usize) -> Result<(), String> {
        let queue = step
            .queue
            .as_ref()
            .map(|q| q.get_ref().clone())
            .unwrap_or_default();
        let url = self
            .urls
            .get(&queue)
            .cloned()
            .ok_or_else(|| format!("no queue `{queue}`"))?;
        let fifo = queue.strip_suffix(".fifo").is_some();
        let kind = step.kind.clone().unwrap_or_else(|| "valid".into());
        let template = step.body.as_deref().unwrap_or(BODY);
        // Each batch's numbers are made as it goes, never a list of them all: the engine does
        // not lean on the check to keep a count from asking for gigabytes.
        for first in (0..step.count).step_by(10) {
            if self.out_of_time() {
                break;
            }
            let end = first.saturating_add(10).min(step.count);
            let entries: Vec<Value> = (first..end)
                .map(|seq| self.entry(step, index, seq, (&kind, template, fifo)))
                .collect();
            let answer = self
                .ep
                .sqs(
                    "SendMessageBatch",
                    &json!({"QueueUrl": url, "Entries": entries}),
                )
                .await?;
            if let Some(failed) = answer["Failed"].as_array().filter(|f| !f.is_empty()) {
                return Err(format!(
                    "SendMessageBatch to {queue} refused entries: {failed:?}"
                ));
            }
            self.count_sent(&kind, end - first);
        }
        Ok(())
    }

    /// One SendMessageBatch entry: the body and attributes filled in for `seq`, the run and
    /// kind attached, a FIFO queue's group and deduplication id.
    fn entry(
        &self,
        step: &Step,
        index: usize,
        seq: u64,
        (kind, template, fifo): (&str, &str, bool),
    ) -> Value {
        let mut attributes = json!({
            RUN_ATTRIBUTE: {"DataType": "String", "StringValue": self.run},
            KIND_ATTRIBUTE: {"DataType": "String", "StringValue": kind},
        });
        for (k, v) in &step.attributes {
            attributes[k] = json!({"DataType": "String", "StringValue": fill(v, seq, &self.run)});
        }
        let mut e = json!({
            "Id": format!("m{seq}"),
            "MessageBody": fill(template, seq, &self.run),
            "MessageAttributes": attributes,
        });
        if let Some(delay) = step.delay_seconds {
            e["DelaySeconds"] = json!(delay);
        }
        if fifo {
            let group = step.group.as_deref().unwrap_or("sqslite-drill");
            e["MessageGroupId"] = json!(fill(group, seq, &self.run));
            let dedup = step
                .dedup
                .clone()
                .unwrap_or_else(|| format!("{{run}}-{index}-{{seq}}"));
            e["MessageDeduplicationId"] = json!(fill(&dedup, seq, &self.run));
        }
        e
    }

    /// Publishes `count` messages to a topic.
    async fn publish(&mut self, step: &Step, index: usize) -> Result<(), String> {
        let topic = step
            .topic
            .as_ref()
            .map(|t| t.get_ref().clone())
            .unwrap_or_default();
        let arn = self
            .topics
            .get(&topic)
            .cloned()
            .ok_or_else(|| format!("no topic `{topic}`"))?;
        let kind = step.kind.clone().unwrap_or_else(|| "valid".into());
        let template = step.body.as_deref().unwrap_or(BODY);
        for seq in 0..step.count {
            if self.out_of_time() {
                break;
            }
            let mut params = vec![
                ("TopicArn".to_owned(), arn.clone()),
                ("Message".to_owned(), fill(template, seq, &self.run)),
            ];
            let mut attributes = vec![
                (RUN_ATTRIBUTE.to_owned(), self.run.clone()),
                (KIND_ATTRIBUTE.to_owned(), kind.clone()),
            ];
            attributes.extend(
                step.attributes
                    .iter()
                    .map(|(k, v)| (k.clone(), fill(v, seq, &self.run))),
            );
            for (n, (name, value)) in attributes.into_iter().enumerate() {
                let at = format!("MessageAttributes.entry.{}", n + 1);
                params.push((format!("{at}.Name"), name));
                params.push((format!("{at}.Value.DataType"), "String".into()));
                params.push((format!("{at}.Value.StringValue"), value));
            }
            if topic.strip_suffix(".fifo").is_some() {
                let group = step.group.as_deref().unwrap_or("sqslite-drill");
                params.push(("MessageGroupId".into(), fill(group, seq, &self.run)));
                let dedup = step
                    .dedup
                    .clone()
                    .unwrap_or_else(|| format!("{{run}}-{index}-{{seq}}"));
                params.push((
                    "MessageDeduplicationId".into(),
                    fill(&dedup, seq, &self.run),
                ));
            }
            self.ep.sns("Publish", &params).await?;
            self.count_sent(&kind, 1);
        }
        Ok(())
    }

    /// Counts messages of `kind` sent, as they go: a step cut short by the timeout counts
    /// what it sent.
    pub(super) fn count_sent(&mut self, kind: &str, n: u64) {
        let sent = self.sent.entry(kind.to_owned()).or_default();
        *sent = sent.saturating_add(n);
    }

    /// Adds a fault rule, for `seconds` of server time if given.
    async fn fault(&mut self, step: &Step) -> Result<(), String> {
        let mut rule = serde_json::to_value(
            step.rule
                .clone()
                .unwrap_or(toml::Value::Table(toml::Table::new())),
        )
        .map_err(|e| e.to_string())?;
        if let Some(seconds) = step.seconds {
            rule["for_seconds"] = json!(seconds);
        }
        let added = self.ep.post("/_sqslite/faults", &rule).await?;
        let id = added["id"]
            .as_u64()
            .ok_or("the fault API gave no rule id")?;
        self.faults.push(id);
        self.marks.push(Mark {
            t: self.history.last().map_or(0, |l| l.t),
            kind: "fault",
            label: format!("fault rule {id}: {rule}"),
        });
        Ok(())
    }

    /// Removes every fault rule the drill added.
    pub(super) async fn clear_faults(&mut self) -> Result<(), String> {
        for id in std::mem::take(&mut self.faults) {
            // A timed rule may be gone already.
            let _ = self.ep.delete(&format!("/_sqslite/faults/{id}")).await;
        }
        Ok(())
    }

    /// Lets `seconds` pass, looking as it goes: server time moved by the drill (`advance`,
    /// manual clock only) or wall time waited (`wait`). The drill's `timeout_seconds` ends
    /// either early, since a step may ask for more time than the drill may take.
    async fn pass_time(&mut self, step: &Step, advance: bool) -> Result<(), String> {
        if advance && !self.manual {
            return Err("an `advance` step needs the server's clock to be manual".into());
        }
        let seconds = step.seconds.unwrap_or(0);
        let per = self.c.file.drill.step_seconds.max(1);
        let look = Duration::from_millis(self.c.file.drill.look_ms);
        // Elapsed wall time, compared, never added to now: no wait can overflow the clock.
        let waited = crate::clock::Stopwatch::start();
        let mut moved = 0;
        while !self.out_of_time() {
            if advance {
                if moved >= seconds {
                    break;
                }
                let by = per.min(seconds - moved);
                self.ep.advance(by).await?;
                moved += by;
            } else if waited.elapsed() >= Duration::from_secs(seconds) {
                break;
            }
            tokio::time::sleep(look).await;
            self.look().await?;
        }
        Ok(())
    }

    /// Starts a move task from `queue` (a dead-letter queue) back to its source, or to
    /// `destination`.
    async fn redrive(&mut self, step: &Step) -> Result<(), String> {
        let queue = step
            .queue
            .as_ref()
            .map(|q| q.get_ref().clone())
            .unwrap_or_default();
        let arn = self.ep.get(&format!("/_sqslite/queues/{queue}")).await?["arn"]
            .as_str()
            .ok_or("the queue has no ARN")?
            .to_owned();
        let mut input = json!({"SourceArn": arn});
        if let Some(dest) = &step.destination {
            let dest = self
                .ep
                .get(&format!("/_sqslite/queues/{}", dest.get_ref()))
                .await?;
            input["DestinationArn"] = dest["arn"].clone();
        }
        self.ep.sqs("StartMessageMoveTask", &input).await?;
        Ok(())
    }

    /// Sets the delivery mode through the admin API: server-wide (with the seed and rates
    /// given), or one queue's own. The settings before the first change are kept for the
    /// rollback.
    async fn delivery(&mut self, step: &Step) -> Result<(), String> {
        if self.delivery_before.is_none() {
            let before = self.ep.get("/_sqslite/delivery").await?;
            self.delivery_before = Some((before, Vec::new()));
        }
        let mode = step.mode.as_ref().map(|m| m.get_ref().clone());
        if let Some(queue) = &step.queue {
            let path = format!("/_sqslite/delivery/queues/{}", queue.get_ref());
            self.ep.put(&path, &json!({ "mode": mode })).await?;
            if let Some((_, changed)) = &mut self.delivery_before {
                changed.push(queue.get_ref().clone());
            }
            return Ok(());
        }
        let mut body = json!({ "mode": mode });
        if let Some(seed) = step.seed {
            body["seed"] = json!(seed);
        }
        if let Some(rates) = &step.rates {
            body["rates"] = json!(rates.get_ref());
        }
        self.ep.put("/_sqslite/delivery", &body).await?;
        Ok(())
    }

    /// Puts the delivery settings back as they were before the drill changed them.
    pub(super) async fn restore_delivery(&mut self) -> Result<(), String> {
        let Some((before, changed)) = self.delivery_before.take() else {
            return Ok(());
        };
        let server =
            json!({"mode": before["mode"], "seed": before["seed"], "rates": before["rates"]});
        self.ep.put("/_sqslite/delivery", &server).await?;
        for name in changed {
            let own = before["queues"]
                .as_array()
                .and_then(|qs| qs.iter().find(|q| q["name"] == name.as_str()))
                .map_or(Value::Null, |q| q["own"].clone());
            let path = format!("/_sqslite/delivery/queues/{name}");
            self.ep.put(&path, &json!({ "mode": own })).await?;
        }
        Ok(())
    }
}
