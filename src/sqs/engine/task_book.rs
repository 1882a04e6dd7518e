//! The move-task list locked for a change: the only way to add, change or forget a task, each
//! change reported as a whole [`Mutation::MoveTask`] (or [`Mutation::MoveTasksCleared`]) to
//! the registry's journal, under the list's lock, so a task change without its record cannot
//! be written. Forgetting finished tasks beyond what ListMessageMoveTasks shows (`prune`) is
//! the one change left unrecorded: it only limits a list, and a restart may show them again.

use std::ops::Deref;
use std::sync::MutexGuard;

use crate::sqs::engine::move_task::{MoveTask, Status};
use crate::sqs::engine::mutation::Mutation;
use crate::sqs::engine::Registry;

/// See the module docs.
pub(crate) struct Book<'a> {
    /// Every move task, held locked while the book is open.
    tasks: MutexGuard<'a, Vec<MoveTask>>,
    /// Where each change is reported.
    registry: &'a Registry,
}

impl Deref for Book<'_> {
    type Target = [MoveTask];

    fn deref(&self) -> &[MoveTask] {
        &self.tasks
    }
}

impl<'a> Book<'a> {
    /// Opens the book over the locked task list.
    pub(crate) fn new(tasks: MutexGuard<'a, Vec<MoveTask>>, registry: &'a Registry) -> Self {
        Book { tasks, registry }
    }

    /// A task just started.
    pub(crate) fn push(&mut self, task: MoveTask) {
        self.registry.emit(&Mutation::MoveTask(&task));
        self.tasks.push(task);
    }

    /// Every task is forgotten (the admin API's reset).
    pub(crate) fn clear(&mut self) {
        self.tasks.clear();
        self.registry.emit(&Mutation::MoveTasksCleared);
    }

    /// Changes the task at `index` through `f`; it is recorded if its status or progress
    /// moved (the only parts of a task that change after it starts).
    pub(crate) fn update<R>(&mut self, index: usize, f: impl FnOnce(&mut MoveTask) -> R) -> R {
        let task = &mut self.tasks[index];
        let before: (Status, u64) = (task.status, task.moved);
        let result = f(task);
        if (task.status, task.moved) != before {
            self.registry.emit(&Mutation::MoveTask(task));
        }
        result
    }

    /// Forgets what `keep` refuses (see the module docs).
    pub(crate) fn retain(&mut self, keep: impl FnMut(&MoveTask) -> bool) {
        self.tasks.retain(keep);
    }
}
