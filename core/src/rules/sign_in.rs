//! How sign-in slows down after failed passwords, and how long account links live.

use jiff::{SignedDuration, Timestamp};

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

/// Whether a sign-in attempt at `now` must wait, after `failures` counted failures the
/// last of which was at `last_failed`: the whole seconds left (at least one), or None when
/// it may go ahead.
pub fn retry_after(failures: i64, last_failed: Timestamp, now: Timestamp) -> Option<u64> {
    let until = last_failed
        .checked_add(throttle_delay(failures)?)
        .unwrap_or(Timestamp::MAX);
    (now < until).then(|| until.duration_since(now).as_secs().max(1) as u64)
}

/// A session's device in a few words, from its User-Agent: "Chrome on Linux", "Safari on
/// iPhone"; "Unknown device" when the header says nothing recognisable.
pub fn device_name(user_agent: &str) -> String {
    let parsed = woothee::parser::Parser::new().parse(user_agent);
    let known = |text: &str| !text.is_empty() && text != woothee::woothee::VALUE_UNKNOWN;
    match parsed {
        Some(found) if known(found.name) && known(found.os) => {
            format!("{} on {}", found.name, found.os)
        }
        Some(found) if known(found.name) => found.name.to_owned(),
        Some(found) if known(found.os) => found.os.to_string(),
        _ => "Unknown device".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_named_by_browser_and_system() {
        for (agent, name) in [
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            ("", "Unknown device"),
            ("curl/8.5.0", "HTTP Library"),
            ("\u{1}\u{2}", "Unknown device"),
        ] {
            assert_eq!(device_name(agent), name, "{agent}");
        }
    }

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

    #[test]
    fn an_attempt_waits_out_the_rest_of_the_delay_after_the_last_failure() {
        let last: Timestamp = "2026-11-23T10:00:00Z".parse().unwrap();
        let at = |secs: i64| last.checked_add(SignedDuration::from_secs(secs)).unwrap();
        let millis = |ms: i64| last.checked_add(SignedDuration::from_millis(ms)).unwrap();
        // The free failures never wait.
        assert_eq!(retry_after(FREE_FAILURES - 1, last, last), None);
        // The sixth failure waits 4 seconds from the last one.
        assert_eq!(retry_after(FREE_FAILURES + 1, last, last), Some(4));
        assert_eq!(retry_after(FREE_FAILURES + 1, last, at(1)), Some(3));
        // Part of a second left still says one second, never zero.
        assert_eq!(retry_after(FREE_FAILURES + 1, last, millis(3_500)), Some(1));
        assert_eq!(retry_after(FREE_FAILURES + 1, last, at(4)), None);
        assert_eq!(retry_after(FREE_FAILURES + 1, last, at(60)), None);
    }
}
