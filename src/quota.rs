//! The one rule for every count a caller can grow without end (queues, SNS subscriptions,
//! event source mappings): a server-wide total, and each account's share of it.
//!
//! On a shared instance (declared `[[credentials]]` and `[[roles]]`) one account filling the
//! server would refuse the others' creates, so each account may hold at most the total
//! divided by the number of declared accounts. The division rounds down, so the shares
//! together never exceed the total: every account can always reach its own share, whatever
//! the others hold. Without declared credentials there is one account, whose share is the
//! whole total, so a developer's laptop meets only the total it always had.
//!
//! The counts are taken from what exists when a create asks, never kept beside it, so they are
//! right after a restart from a data directory with nothing more to recover. Each service
//! words the refusal in its own error shape, with the words made here.

/// A server-wide bound and the number of accounts that share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// What the whole server holds at most.
    total: usize,
    /// The declared accounts the total is shared among; at least 1.
    accounts: usize,
}

/// Why one more would not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    /// The server holds its total, whoever's they are.
    Total(usize),
    /// The asking account holds its share.
    Share(Quota),
}

impl Quota {
    /// A total held by one account (no declared credentials).
    pub const fn whole(total: usize) -> Quota {
        Quota { total, accounts: 1 }
    }

    /// The same total, shared among `accounts` (0 is taken as 1).
    #[must_use]
    pub fn among(self, accounts: usize) -> Quota {
        Quota {
            accounts: accounts.max(1),
            ..self
        }
    }

    /// What one account may hold: the total divided by the accounts, rounded down.
    pub fn share(self) -> usize {
        self.total / self.accounts
    }

    /// Whether one more fits, with `all` held on the server and `mine()` by the asking
    /// account. `mine` runs only when `all` has reached the share (below it no account can
    /// be at its share), so a count that walks every item costs nothing far from the bound.
    /// The share is told first: an account at its share is refused whatever the total, and
    /// the total alone refuses only an account outside the declared ones (the server's own,
    /// of declared queues) while the others hold the rest. One account's share is the total.
    pub fn admit(self, all: usize, mine: impl FnOnce() -> usize) -> Result<(), Exceeded> {
        if self.accounts > 1 && all >= self.share() && mine() >= self.share() {
            return Err(Exceeded::Share(self));
        }
        if all >= self.total {
            return Err(Exceeded::Total(self.total));
        }
        Ok(())
    }
}

impl Exceeded {
    /// The refusal's words, naming the `setting` to raise: `what` is the items' plural
    /// ("queues"), `undo` how a caller frees one ("delete queues").
    pub fn message(self, what: &str, setting: &str, undo: &str) -> String {
        match self {
            Exceeded::Total(total) => format!(
                "sqslite holds its maximum of {total} {what} ({setting}); {undo} or raise {setting}."
            ),
            Exceeded::Share(q) => format!(
                "This account holds its share of {} {what}: {setting} = {} shared among {} accounts; {undo} or raise {setting}.",
                q.share(),
                q.total,
                q.accounts
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Exceeded, Quota};

    #[test]
    fn one_account_has_the_whole_total() {
        let q = Quota::whole(4);
        assert_eq!(q.share(), 4);
        assert_eq!(q.admit(3, || 3), Ok(()));
        assert_eq!(
            q.admit(4, || unreachable!("one account")),
            Err(Exceeded::Total(4))
        );
    }

    #[test]
    fn each_account_reaches_its_share_whatever_the_others_hold() {
        let q = Quota::whole(5).among(2);
        assert_eq!(q.share(), 2, "rounded down: the shares fit in the total");
        assert_eq!(q.admit(2, || 2), Err(Exceeded::Share(q)));
        assert_eq!(q.admit(3, || 1), Ok(()));
        assert_eq!(q.admit(5, || 1), Err(Exceeded::Total(5)));
        assert_eq!(
            q.admit(5, || 2),
            Err(Exceeded::Share(q)),
            "the share told first"
        );
    }

    #[test]
    fn the_account_is_counted_only_near_the_share() {
        let q = Quota::whole(100).among(2);
        assert_eq!(q.admit(49, || unreachable!("far from the share")), Ok(()));
        assert_eq!(Quota::whole(1).among(0).share(), 1, "no accounts is one");
    }

    #[test]
    fn the_words_name_the_setting_and_the_share() {
        let share = Exceeded::Share(Quota::whole(4).among(2));
        let text = share.message("queues", "max_queues", "delete queues");
        assert_eq!(
            text,
            "This account holds its share of 2 queues: max_queues = 4 shared among 2 accounts; delete queues or raise max_queues."
        );
        let total = Exceeded::Total(4).message("queues", "max_queues", "delete queues");
        assert!(
            total.contains("maximum of 4 queues (max_queues)"),
            "{total}"
        );
    }
}
