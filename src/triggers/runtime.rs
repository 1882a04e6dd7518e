//! The runtime: one poller per enabled mapping, started, restarted and stopped as the
//! registry changes, and the mappings' transitional states settled once it has acted. A
//! poller stops when its queue is deleted; it starts again on a queue created under the
//! same ARN (the ARN names the queue: AWS documents nothing for this case).

use std::collections::HashMap;
use std::sync::Arc;

use tokio::task::JoinHandle;

use super::mapping::{Mapping, State};
use super::poller::{self, Job};
use crate::triggers::Service;

/// A running poller, the mapping it was started for and the queue (by uid) it polls;
/// dropping it stops the poller.
struct Running {
    mapping: Mapping,
    queue_uid: u64,
    task: JoinHandle<()>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Runs until the server shuts down, then stops every poller (and their invocations).
pub async fn run(app: Arc<Service>) {
    let mut changes = app.model.mappings.subscribe();
    let mut created = app.sqs.registry.queues_created();
    let mut running: HashMap<String, Running> = HashMap::new();
    loop {
        changes.mark_unchanged();
        created.mark_unchanged();
        reconcile(&app, &mut running);
        tokio::select! {
            result = changes.changed() => if result.is_err() { break },
            result = created.changed() => if result.is_err() { break },
            () = app.sqs.waiters.closed() => break,
        }
    }
}

/// Brings the pollers in line with the registry.
fn reconcile(app: &Arc<Service>, running: &mut HashMap<String, Running>) {
    let mappings = &app.model.mappings;
    let all = mappings.list();
    running.retain(|uuid, _| all.iter().any(|m| &m.uuid == uuid));
    app.model
        .retain_stats(|uuid| all.iter().any(|m| m.uuid == uuid));
    for m in all {
        if m.state == State::Deleting {
            running.remove(&m.uuid);
            mappings.remove(&m.uuid);
            continue;
        }
        // The queue of the ARN now, which is another than the poller's once its queue was
        // deleted and created again.
        let queue_uid = app
            .sqs
            .registry
            .get_by_arn(&m.event_source_arn)
            .map(|q| q.uid);
        let current = running.get(&m.uuid).is_some_and(|r| {
            !r.task.is_finished() && same_work(&r.mapping, &m) && queue_uid == Some(r.queue_uid)
        });
        if !m.enabled {
            running.remove(&m.uuid);
        } else if !current {
            running.remove(&m.uuid);
            if let Some((task, queue_uid)) = start(app, &m) {
                let mapping = m.clone();
                let r = Running {
                    mapping,
                    queue_uid,
                    task,
                };
                running.insert(m.uuid.clone(), r);
            }
        }
        let settled = m.settled_state();
        if m.state != settled {
            let _ = mappings.update::<(), ()>(&m.uuid, |m| {
                m.state = settled;
                Ok(())
            });
        }
    }
}

/// Whether a poller started for `a` does the work `b` asks for.
fn same_work(a: &Mapping, b: &Mapping) -> bool {
    a.function_arn == b.function_arn
        && a.event_source_arn == b.event_source_arn
        && a.settings == b.settings
}

/// The poller of `m` and the uid of the queue it polls.
fn start(app: &Arc<Service>, m: &Mapping) -> Option<(JoinHandle<()>, u64)> {
    // The mapping's function ARN names its own region and account: a mapping the Lambda API
    // made for another region or account than the server's runs there too.
    let mut scope = m.function_arn.split(':').skip(3);
    let (region, account) = match (scope.next(), scope.next()) {
        (Some(region), Some(account)) => (region, account),
        _ => (app.region.as_str(), app.account_id.as_str()),
    };
    let Some(function) = app
        .model
        .functions
        .resolve(&m.function_arn, region, account)
    else {
        tracing::warn!(mapping = %m.uuid, "no declared function {}: not polling", m.function_arn);
        return None;
    };
    let Some(queue) = app.sqs.registry.get_by_arn(&m.event_source_arn) else {
        tracing::warn!(mapping = %m.uuid, "no queue {}: not polling", m.event_source_arn);
        return None;
    };
    let uid = queue.uid;
    let job = Job {
        app: app.clone(),
        mapping: m.clone(),
        function: function.clone(),
        queue,
        stats: app.model.stats_of(&m.uuid),
        refused: std::sync::atomic::AtomicBool::new(false),
    };
    Some((tokio::spawn(poller::run(Arc::new(job))), uid))
}

#[cfg(test)]
#[path = "runtime_tests.rs"]
mod tests;
