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

/// A moment column of active clients that the counts compare with a moving moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Moment {
    /// When a client becomes overdue: counted before now.
    Overdue,
    /// When the stage alert's clock started (the stage-entered moment of a client still
    /// in the pipeline; never for a finished one, migration 13): counted before the
    /// stage alert's cutoff.
    StageAlert,
}

impl Moment {
    /// The column, which is also the tally's name (migrations 7 and 13).
    fn column(self) -> &'static str {
        match self {
            Moment::Overdue => "overdue_at",
            Moment::StageAlert => "stage_alert_from",
        }
    }
}

fn moment_between_sql(moment: Moment) -> String {
    let column = moment.column();
    format!(
        "SELECT count(*) FROM intakes
         WHERE deleted_at IS NULL AND archived = 0 AND {column} >= ?1 AND {column} < ?2"
    )
}

/// Active clients whose moment lies in `[from, to)`: an index range.
fn moment_between(store: &Store, moment: Moment, from: &str, to: &str) -> Result<i64> {
    Ok(super::query_row(
        store.conn(),
        &moment_between_sql(moment),
        params![from, to],
        |row| row.get(0),
    )?)
}

const FOLLOW_UPS_BETWEEN: &str = "SELECT count(*) FROM intakes
    WHERE deleted_at IS NULL AND archived = 0
      AND next_follow_up_date >= ?1 AND next_follow_up_date < ?2";

/// Follow-ups of active clients dated in `[from, to)`: an index range.
fn follow_ups_between(store: &Store, from: &str, to: &str) -> Result<i64> {
    Ok(super::query_row(
        store.conn(),
        FOLLOW_UPS_BETWEEN,
        params![from, to],
        |row| row.get(0),
    )?)
}

/// The count before `at` from the tally's settled moment, and how many index entries
/// that walked.
fn from_tally(store: &Store, moment: Moment, at: &str) -> Result<(i64, i64)> {
    let (through, settled): (String, i64) = super::query_row(
        store.conn(),
        "SELECT through, n FROM moment_tallies WHERE name = ?1",
        [moment.column()],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    Ok(if at >= through.as_str() {
        let between = moment_between(store, moment, &through, at)?;
        (settled + between, between)
    } else {
        // The moment asked about is behind the settled one (a clock set back, a longer
        // stage alert, a test).
        let between = moment_between(store, moment, at, &through)?;
        (settled - between, between)
    })
}

impl Store {
    /// Active (not archived, not deleted) clients whose `moment` is before `at`. Exact
    /// at the moment of the call.
    pub(crate) fn moment_count(&self, moment: Moment, at: Timestamp) -> Result<i64> {
        let at = ts(at);
        let (count, walked) = from_tally(self, moment, &at)?;
        if walked > SETTLE_AFTER {
            if self.conn().is_autocommit() {
                // Settling is only a shortcut for later counts: when another connection
                // holds the write lock, this count is exact without it.
                let _ = self.settle(moment, &at);
            } else {
                let mut unsettled = self.unsettled.borrow_mut();
                unsettled.retain(|(kept, _)| *kept != moment);
                unsettled.push((moment, at));
            }
        }
        Ok(count)
    }

    /// Settles what counts inside a snapshot (see [`Store::snapshot`]) left to settle,
    /// now that it has ended.
    pub(crate) fn settle_unsettled(&self) {
        let unsettled = std::mem::take(&mut *self.unsettled.borrow_mut());
        for (moment, at) in unsettled {
            if self.conn().is_autocommit() {
                let _ = self.settle(moment, &at);
            }
        }
    }

    /// Active clients overdue at `now`.
    pub(crate) fn overdue_count(&self, now: Timestamp) -> Result<i64> {
        self.moment_count(Moment::Overdue, now)
    }

    /// Moves a tally's settled moment to `at`, in a transaction of its own that does not
    /// wait for another process's writer.
    fn settle(&self, moment: Moment, at: &str) -> Result<()> {
        // It waits its turn behind this process's writers: under a steady stream of
        // writes the turn is seldom free, and a tally never settled makes every count
        // walk more rows. Another process's writer still makes it give up at once.
        let _turn = self.gate.enter();
        self.conn().busy_timeout(Duration::ZERO)?;
        let begun = self.conn().execute_batch("BEGIN IMMEDIATE");
        self.conn().busy_timeout(BUSY_TIMEOUT)?;
        begun?;
        let result = (|| {
            let (count, _) = from_tally(self, moment, at)?;
            super::exec(
                self.conn(),
                "UPDATE moment_tallies SET through = ?1, n = ?2 WHERE name = ?3",
                params![at, count, moment.column()],
            )?;
            self.conn().execute_batch("COMMIT")?;
            Ok(())
        })();
        if result.is_err() && !self.conn().is_autocommit() {
            let _ = self.conn().execute_batch("ROLLBACK");
        }
        result
    }

    /// Follow-ups of active clients dated in `[from, to)`: the whole UTC hours between from the hourly
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
    /// `statuses`, not deleted, of clients not archived.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A count inside a read snapshot cannot move its tally, so the snapshot settles it
    /// when it ends: otherwise every later count would walk ever more of the index.
    #[test]
    fn a_count_in_a_snapshot_settles_its_tally_when_the_snapshot_ends() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path().join("settle.db")).unwrap();
        let options = crate::demo::DemoOptions {
            clients: 600,
            ..Default::default()
        };
        crate::demo::build(&mut store, &options).unwrap();
        store
            .conn()
            .execute_batch("UPDATE moment_tallies SET through = '', n = 0")
            .unwrap();
        let recount: i64 = store
            .conn()
            .query_row(
                "SELECT count(*) FROM intakes
                 WHERE deleted_at IS NULL AND archived = 0 AND overdue_at < ?1",
                [ts(store.now())],
                |row| row.get(0),
            )
            .unwrap();
        assert!(
            recount > SETTLE_AFTER,
            "the demo has {recount} overdue clients"
        );
        let through = |store: &Store| -> String {
            store
                .conn()
                .query_row(
                    "SELECT through FROM moment_tallies WHERE name = 'overdue_at'",
                    [],
                    |row| row.get(0),
                )
                .unwrap()
        };

        let counted = store
            .snapshot(|| {
                let count = store.overdue_count(store.now())?;
                assert_eq!(
                    through(&store),
                    "",
                    "nothing is written inside the snapshot"
                );
                Ok(count)
            })
            .unwrap();
        assert_eq!(counted, recount);
        assert!(
            !through(&store).is_empty(),
            "the tally moved when the snapshot ended"
        );
        assert_eq!(store.overdue_count(store.now()).unwrap(), recount);
    }

    /// Each walk is a range of the index made for it. A planner that took another index
    /// (one starting with `archived` only) would read every active client per count.
    #[test]
    fn each_count_walks_its_own_index_range() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("plans.db")).unwrap();
        let cases = [
            (moment_between_sql(Moment::Overdue), "intakes_overdue"),
            (
                moment_between_sql(Moment::StageAlert),
                "intakes_stage_alert",
            ),
            (FOLLOW_UPS_BETWEEN.to_owned(), "intakes_follow_up"),
        ];
        for (sql, index) in cases {
            let plan = store.explain(&sql, &[&"a", &"b"]).unwrap().join("\n");
            assert!(
                plan.contains(&format!("USING COVERING INDEX {index} (archived=? AND"))
                    || plan.contains(&format!("USING INDEX {index} (archived=? AND")),
                "{sql}: {plan}"
            );
        }
    }
}
