//! A connection future that answers its own wake-ups by polling again at once.
//!
//! hyper's request-body channel wakes the connection task while that task is polling it:
//! taking the body's bytes wakes the dispatcher, which is the task doing the taking. tokio
//! treats a task woken during its own poll as a yield: it goes to the back of the run queue,
//! where another worker may steal it, and a parked worker is woken to look for it (a futex
//! wake, an eventfd write and an `epoll_wait` per request, measured with `strace -c`). The
//! bare hyper server of the benchmark never reads a body, so it never pays this.
//!
//! [`SelfWakes`] gives the inner future a waker of its own. A wake that arrives while the inner
//! future is being polled only marks it, and the inner future is polled again before this
//! poll returns; a wake at any other time goes to the task's waker as usual. At most
//! [`REPOLLS`] marked wakes are answered in one poll, so a future that keeps waking itself
//! (hyper's dispatcher yields on purpose after 16 pipelined requests) still yields to the
//! scheduler.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use atomic_waker::AtomicWaker;

/// Marked wakes answered by polling again within one poll before the wake is passed on.
const REPOLLS: usize = 2;

const IDLE: u8 = 0;
const POLLING: u8 = 1;
const WOKEN: u8 = 2;

struct Shared {
    state: AtomicU8,
    task: AtomicWaker,
}

impl Wake for Shared {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Inside a poll the wake is marked and answered by the poll itself; outside one it is
        // the task's to answer.
        match self
            .state
            .compare_exchange(POLLING, WOKEN, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) | Err(WOKEN) => {}
            Err(_) => self.task.wake(),
        }
    }
}

/// `inner`, polled again at once when it wakes itself during a poll (see the module docs).
pub struct SelfWakes<F> {
    inner: Pin<Box<F>>,
    shared: Arc<Shared>,
    waker: Waker,
}

impl<F: Future> SelfWakes<F> {
    pub fn new(inner: F) -> Self {
        let shared = Arc::new(Shared {
            state: AtomicU8::new(IDLE),
            task: AtomicWaker::new(),
        });
        SelfWakes {
            inner: Box::pin(inner),
            waker: Waker::from(shared.clone()),
            shared,
        }
    }
}

impl<F: Future> Future for SelfWakes<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        this.shared.task.register(cx.waker());
        let mut inner_cx = Context::from_waker(&this.waker);
        for _ in 0..=REPOLLS {
            this.shared.state.store(POLLING, Ordering::Release);
            let polled = this.inner.as_mut().poll(&mut inner_cx);
            let was = this.shared.state.swap(IDLE, Ordering::AcqRel);
            if polled.is_ready() || was != WOKEN {
                return polled;
            }
        }
        // Still waking itself: hand the last wake to the scheduler, so other tasks get a turn.
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Polls `inner` once through [`SelfWakes`]: whether it finished, and how often the task
    /// was woken; `then` runs on the wrapper after the poll.
    fn poll_once<F: Future>(inner: F, then: impl FnOnce(&SelfWakes<F>)) -> (bool, usize) {
        let task = Arc::new(Counter(AtomicUsize::new(0)));
        let waker = Waker::from(task.clone());
        let mut fut = Box::pin(SelfWakes::new(inner));
        let ready = fut
            .as_mut()
            .poll(&mut Context::from_waker(&waker))
            .is_ready();
        then(&fut);
        (ready, task.0.load(Ordering::SeqCst))
    }

    /// A future that wakes itself on each of its first `wakes` polls, then finishes, and the
    /// count of its polls.
    fn waking(wakes: usize) -> (impl Future<Output = ()>, Arc<AtomicUsize>) {
        let polls = Arc::new(AtomicUsize::new(0));
        let counted = polls.clone();
        let fut = std::future::poll_fn(move |cx: &mut Context<'_>| {
            if counted.fetch_add(1, Ordering::SeqCst) < wakes {
                cx.waker().wake_by_ref();
                Poll::Pending
            } else {
                Poll::Ready(())
            }
        });
        (fut, polls)
    }

    #[test]
    fn a_self_wake_is_answered_within_the_same_poll() {
        let (fut, polls) = waking(1);
        assert_eq!(
            poll_once(fut, |_| {}),
            (true, 0),
            "ready, the task not woken"
        );
        assert_eq!(polls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_future_that_keeps_waking_itself_still_yields() {
        let (fut, polls) = waking(usize::MAX);
        assert_eq!(
            poll_once(fut, |_| {}),
            (false, 1),
            "pending, the task woken"
        );
        assert_eq!(polls.load(Ordering::SeqCst), REPOLLS + 1);
    }

    #[test]
    fn a_wake_between_polls_reaches_the_task() {
        let pending = std::future::poll_fn(|_: &mut Context<'_>| Poll::<()>::Pending);
        assert_eq!(poll_once(pending, |f| f.waker.wake_by_ref()), (false, 1));
    }

    struct Counter(AtomicUsize);

    impl Wake for Counter {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
}
