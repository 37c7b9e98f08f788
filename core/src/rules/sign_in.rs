//! How sign-in slows down after failed passwords, and how long account links live.

use jiff::SignedDuration;

/// Failed sign-ins (for one email from one client address) after which each further
/// attempt waits longer.
pub const FREE_FAILURES: i64 = 5;
/// Magic links and recovery links work once, for ten minutes.
pub const LINK_LIFETIME: SignedDuration = SignedDuration::from_mins(10);
/// An invitation link works once, for seven days.
pub const INVITATION_LIFETIME: SignedDuration = SignedDuration::from_hours(7 * 24);
/// Failures older than this are forgotten.
pub const FAILURE_MEMORY: SignedDuration = SignedDuration::from_hours(24);

/// The wait after `failures` failed sign-ins: none for the free ones, then 2, 4, 8 …
/// seconds, at most 15 minutes.
pub fn throttle_delay(failures: i64) -> Option<SignedDuration> {
    if failures < FREE_FAILURES {
        return None;
    }
    let exponent = (failures - FREE_FAILURES + 1).min(10) as u32;
    Some(SignedDuration::from_secs((1i64 << exponent).min(900)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_after_the_free_failures_up_to_fifteen_minutes() {
        for (failures, wait) in [
            (0, None),
            (4, None),
            (5, Some(2)),
            (6, Some(4)),
            (9, Some(32)),
            (14, Some(900)),
            (1_000, Some(900)),
        ] {
            assert_eq!(
                throttle_delay(failures).map(|delay| delay.as_secs()),
                wait,
                "{failures}"
            );
        }
    }
}
