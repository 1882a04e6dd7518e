//! A move task's status: its SQS names and its byte in the durable log.

/// A message move task's Status, as ListMessageMoveTasks reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `RUNNING`: moving at its rate.
    Running,
    /// `COMPLETED`: the source held no more messages to move.
    Completed,
    /// `CANCELLING`: asked to stop, not yet stopped.
    Cancelling,
    /// `CANCELLED`.
    Cancelled,
    /// `FAILED`: see the failure reason.
    Failed,
}

impl Status {
    /// The status in SQS's form.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Running => "RUNNING",
            Status::Completed => "COMPLETED",
            Status::Cancelling => "CANCELLING",
            Status::Cancelled => "CANCELLED",
            Status::Failed => "FAILED",
        }
    }

    /// Whether the task still holds its source: SQS allows one active task per source queue.
    pub(super) fn active(self) -> bool {
        matches!(self, Status::Running | Status::Cancelling)
    }

    /// The status's byte in the durable log; never renumber.
    pub(crate) fn code(self) -> u8 {
        match self {
            Status::Running => 0,
            Status::Completed => 1,
            Status::Cancelling => 2,
            Status::Cancelled => 3,
            Status::Failed => 4,
        }
    }

    /// The status a byte of the durable log stands for; `None` for a byte no version wrote.
    pub(crate) fn from_code(code: u8) -> Option<Status> {
        [
            Status::Running,
            Status::Completed,
            Status::Cancelling,
            Status::Cancelled,
            Status::Failed,
        ]
        .into_iter()
        .find(|s| s.code() == code)
    }
}
