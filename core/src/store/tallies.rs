//! The counts the dashboard and the clients page show, read from the tallies of
//! migration 7 so that each costs the same however many clients the agency has.

use std::time::Duration;

use jiff::Timestamp;
use rusqlite::{OptionalExtension, params};

use super::{BUSY_TIMEOUT, Store, ts};
use crate::error::Result;

/// When the clients between the settled moment and now number more than this, a count
/// settles them, so the next counts walk fewer.
const SETTLE_AFTER: i64 = 256;

const SECONDS_PER_HOUR: i64 = 3_600;

/// Active clients whose overdue moment lies in `[from, to)`: an index range.
fn overdue_between(store: &Store, from: &str, to: &str) -> Result<i64> {
    Ok(super::query_row(
        store.conn(),
        "SELECT count(*) FROM intakes
         WHERE deleted_at IS NULL AND archived = 0 AND overdue_at >= ?1 AND overdue_at < ?2",
        params![from, to],
        |row| row.get(0),
    )?)
}

/// Follow-ups dated in `[from, to)`: an index range.
fn follow_ups_between(store: &Store, from: &str, to: &str) -> Result<i64> {
    Ok(super::query_row(
        store.conn(),
        "SELECT count(*) FROM intakes
         WHERE deleted_at IS NULL AND next_follow_up_date >= ?1 AND next_follow_up_date < ?2",
        params![from, to],
        |row| row.get(0),
    )?)
}

/// The settled moment, its count, and the count at `now` from them.
fn overdue_from_tally(store: &Store, now: &str) -> Result<(String, i64, i64, i64)> {
    let (through, settled): (String, i64) = super::query_row(
        store.conn(),
        "SELECT through, n FROM overdue_tally WHERE one = 1",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    let (count, walked) = if now >= through.as_str() {
        let between = overdue_between(store, &through, now)?;
        (settled + between, between)
    } else {
        // The clock is behind the settled moment (a clock set back, a test).
        let between = overdue_between(store, now, &through)?;
        (settled - between, between)
    };
    Ok((through, settled, count, walked))
}

impl Store {
    /// Active (not archived, not deleted) clients overdue at `now`: those whose overdue
    /// moment is before it. Exact at the moment of the call.
    pub(crate) fn overdue_count(&self, now: Timestamp) -> Result<i64> {
        let now = ts(now);
        let (_, _, count, walked) = overdue_from_tally(self, &now)?;
        if walked > SETTLE_AFTER && self.conn().is_autocommit() {
            // Settling is only a shortcut for later counts: when another connection
            // holds the write lock, this count is exact without it.
            let _ = self.settle_overdue(&now);
        }
        Ok(count)
    }

    /// Moves the overdue tally's settled moment to `now`, in a transaction of its own
    /// that does not wait for another writer.
    fn settle_overdue(&self, now: &str) -> Result<()> {
        self.conn().busy_timeout(Duration::ZERO)?;
        let begun = self.conn().execute_batch("BEGIN IMMEDIATE");
        self.conn().busy_timeout(BUSY_TIMEOUT)?;
        begun?;
        let result = (|| {
            let (_, _, count, _) = overdue_from_tally(self, now)?;
            super::exec(
                self.conn(),
                "UPDATE overdue_tally SET through = ?1, n = ?2 WHERE one = 1",
                params![now, count],
            )?;
            self.conn().execute_batch("COMMIT")?;
            Ok(())
        })();
        if result.is_err() && !self.conn().is_autocommit() {
            let _ = self.conn().execute_batch("ROLLBACK");
        }
        result
    }

    /// Follow-ups dated in `[from, to)`: the whole UTC hours between from the hourly
    /// tally, the partial hours at the ends on the index.
    pub(crate) fn follow_ups_count(&self, from: Timestamp, to: Timestamp) -> Result<i64> {
        let (start, end) = (from.as_second(), to.as_second());
        let first_hour = start.div_euclid(SECONDS_PER_HOUR)
            + i64::from(start.rem_euclid(SECONDS_PER_HOUR) != 0 || from.subsec_nanosecond() != 0);
        let last_hour = end.div_euclid(SECONDS_PER_HOUR);
        let hour = |h: i64| Timestamp::from_second(h * SECONDS_PER_HOUR).ok();
        let (Some(whole_from), Some(whole_to)) = (hour(first_hour), hour(last_hour)) else {
            return follow_ups_between(self, &ts(from), &ts(to));
        };
        if first_hour >= last_hour {
            return follow_ups_between(self, &ts(from), &ts(to));
        }
        let (whole_from, whole_to) = (ts(whole_from), ts(whole_to));
        let whole: i64 = super::query_row(
            self.conn(),
            "SELECT coalesce(sum(n), 0) FROM follow_up_hours WHERE hour >= ?1 AND hour < ?2",
            params![&whole_from[..13], &whole_to[..13]],
            |row| row.get(0),
        )?;
        Ok(whole
            + follow_ups_between(self, &ts(from), &whole_from)?
            + follow_ups_between(self, &whole_to, &ts(to))?)
    }

    /// Records of one kind (`assessment`, `care_plan`, `contract`) with one of
    /// `statuses`, not deleted.
    pub(crate) fn record_count(&self, entity: &str, statuses: &[&str]) -> Result<i64> {
        let mut total = 0;
        for status in statuses {
            let n: Option<i64> = super::query_row(
                self.conn(),
                "SELECT n FROM record_counts WHERE entity = ?1 AND status = ?2",
                params![entity, status],
                |row| row.get(0),
            )
            .optional()?;
            total += n.unwrap_or(0);
        }
        Ok(total)
    }
}
