//! The cost of care: weekly hours, weekly and monthly cost, weekend hours, the blended
//! rate and the holiday rate (second spec document, §9).

use serde::{Deserialize, Serialize};

use crate::model::WeeklySchedule;

/// Weeks per month the spec uses for the approximate monthly cost.
pub const WEEKS_PER_MONTH: f64 = 4.33;

/// The spec's holiday rate is 1.5 × base unless a template says otherwise.
pub const DEFAULT_HOLIDAY_MULTIPLIER: f64 = 1.5;

/// Decimal places kept before rounding to cents: enough to hold any amount the agency
/// bills exactly, few enough to wipe out binary artefacts (`3 × 33.335` is stored as
/// 100.00499999999998 but means 100.005).
const ARTEFACT_DECIMALS: usize = 8;

/// Rounds to 2 decimals, half away from zero, on the decimal value the number stands
/// for: 1.005 → 1.01 and 2.675 → 2.68, although both are stored just below the half.
pub fn round2(value: f64) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let text = format!("{:.*}", ARTEFACT_DECIMALS, value.abs());
    let Some((whole, fraction)) = text.split_once('.') else {
        return value;
    };
    let cents_text = format!("{whole}{}", &fraction[..2]);
    let Ok(mut cents) = cents_text.parse::<f64>() else {
        return value;
    };
    if fraction.as_bytes()[2] >= b'5' {
        cents += 1.0;
    }
    // Dividing a whole number of cents by 100 gives the double nearest the decimal.
    let rounded = cents / 100.0;
    if value.is_sign_negative() && rounded != 0.0 {
        -rounded
    } else {
        rounded
    }
}

/// Hours that count: validation refuses negative and non-finite hours, and a stored
/// plan that somehow holds one must not produce a negative bill.
fn countable(hours: f64) -> f64 {
    if hours.is_finite() && hours > 0.0 {
        hours
    } else {
        0.0
    }
}

pub fn total_weekly_hours(schedule: &WeeklySchedule) -> f64 {
    round2(
        schedule
            .days()
            .iter()
            .map(|(_, day)| countable(day.hours))
            .sum(),
    )
}

/// Saturday plus Sunday hours.
pub fn weekend_hours(schedule: &WeeklySchedule) -> f64 {
    round2(countable(schedule.saturday.hours) + countable(schedule.sunday.hours))
}

/// Total weekly hours × hourly rate, to the cent.
pub fn weekly_cost(hours: f64, rate: f64) -> f64 {
    round2(hours * rate)
}

/// Weekly cost × 4.33, to the cent.
pub fn monthly_cost(weekly: f64) -> f64 {
    round2(weekly * WEEKS_PER_MONTH)
}

/// The average hourly rate when weekend hours carry the weekend premium; None when the
/// schedule has no weekend hours (the breakdown then shows only the base rate).
pub fn blended_rate(
    base: f64,
    weekend_premium: f64,
    total_hours: f64,
    weekend_hours: f64,
) -> Option<f64> {
    if !(total_hours > 0.0 && weekend_hours > 0.0) {
        return None;
    }
    let weekday_hours = (total_hours - weekend_hours).max(0.0);
    let billed = base * weekday_hours + (base + weekend_premium) * weekend_hours;
    Some(round2(billed / total_hours))
}

pub fn holiday_rate(base: f64, multiplier: f64) -> f64 {
    round2(base * multiplier)
}

/// Everything the cost box of a care plan shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CarePlanCosts {
    pub total_weekly_hours: f64,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    pub weekend_hours: f64,
    pub blended_rate: Option<f64>,
}

/// The costs the store saves with a care plan. Weekly cost is hours × the hourly rate
/// staff agreed on; the blended rate is shown beside it for information only.
pub fn care_plan_costs(
    schedule: &WeeklySchedule,
    rate: f64,
    weekend_premium: f64,
) -> CarePlanCosts {
    let total = total_weekly_hours(schedule);
    let weekend = weekend_hours(schedule);
    let weekly = weekly_cost(total, rate);
    CarePlanCosts {
        total_weekly_hours: total,
        weekly_cost: weekly,
        monthly_cost: monthly_cost(weekly),
        weekend_hours: weekend,
        blended_rate: blended_rate(rate, weekend_premium, total, weekend),
    }
}

/// What the cost box shows for a schedule and a rate before anything is saved: the
/// same numbers the save stores, with the rate and the weekend premium they came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CarePlanQuote {
    pub hourly_rate: f64,
    pub total_weekly_hours: f64,
    pub weekend_hours: f64,
    /// None when the schedule has no weekend hours.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub blended_rate: Option<f64>,
    pub weekly_cost: f64,
    pub monthly_cost: f64,
    pub weekend_premium: f64,
    /// Where the hourly rate comes from (`rules::pricing::rate_source`), shown under it.
    pub rate_source: String,
}

pub fn quote(
    schedule: &WeeklySchedule,
    rate: f64,
    weekend_premium: f64,
    rate_source: String,
) -> CarePlanQuote {
    let costs = care_plan_costs(schedule, rate, weekend_premium);
    CarePlanQuote {
        hourly_rate: rate,
        total_weekly_hours: costs.total_weekly_hours,
        weekend_hours: costs.weekend_hours,
        blended_rate: costs.blended_rate,
        weekly_cost: costs.weekly_cost,
        monthly_cost: costs.monthly_cost,
        weekend_premium,
        rate_source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DaySchedule;

    fn schedule(hours: [f64; 7]) -> WeeklySchedule {
        let mut schedule = WeeklySchedule::default();
        for (slot, hours) in schedule.days_mut().into_iter().zip(hours) {
            *slot = DaySchedule {
                time: String::new(),
                hours,
            };
        }
        schedule
    }

    #[test]
    fn round2_is_half_away_from_zero_on_the_decimal_value() {
        let cases = [
            (0.0, 0.0),
            (1.0, 1.0),
            (1.004, 1.0),
            (1.005, 1.01), // stored as 1.00499999999999989…
            (2.675, 2.68), // stored as 2.67499999999999982…
            (1.015, 1.02),
            (0.125, 0.13),
            (0.135, 0.14),
            (1.994, 1.99),
            (1.995, 2.0),
            (9.999, 10.0),
            (-1.005, -1.01),
            (-0.004, 0.0),
            (123456.785, 123456.79),
            (0.1 + 0.2, 0.3),
            (3.0 * 33.335, 100.01), // the product carries an artefact below the half
        ];
        for (value, expected) in cases {
            assert_eq!(round2(value), expected, "{value:?}");
        }
        assert!(round2(-0.004).is_sign_positive(), "no negative zero");
        assert!(round2(f64::NAN).is_nan());
        assert_eq!(round2(f64::INFINITY), f64::INFINITY);
    }

    #[test]
    fn hours_totals() {
        let cases = [
            ([0.0; 7], 0.0, 0.0),
            ([4.0, 4.0, 4.0, 4.0, 4.0, 0.0, 0.0], 20.0, 0.0),
            ([4.0, 0.0, 4.0, 0.0, 4.0, 3.5, 2.5], 18.0, 6.0),
            ([0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5], 3.5, 1.0),
            ([0.0, 0.0, 0.0, 0.0, 0.0, 8.0, 0.0], 8.0, 8.0),
            ([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 24.0], 24.0, 24.0),
            // Hours validation refuses are not billed.
            (
                [-4.0, f64::NAN, f64::INFINITY, 2.0, 0.0, -1.0, 1.0],
                3.0,
                1.0,
            ),
        ];
        for (hours, total, weekend) in cases {
            let schedule = schedule(hours);
            assert_eq!(total_weekly_hours(&schedule), total, "{hours:?}");
            assert_eq!(weekend_hours(&schedule), weekend, "{hours:?}");
        }
    }

    #[test]
    fn weekly_and_monthly_costs() {
        let cases = [
            // hours, rate, weekly, monthly
            (0.0, 28.5, 0.0, 0.0),
            (20.0, 25.0, 500.0, 2165.0),
            (12.5, 28.5, 356.25, 1542.56), // 1542.5625
            (10.0, 32.0, 320.0, 1385.6),
            (17.5, 35.0, 612.5, 2652.13),   // 2652.125 rounds up
            (3.0, 33.335, 100.01, 433.04),  // 100.01 × 4.33 = 433.0433
            (40.0, 27.99, 1119.6, 4847.87), // 4847.868
            (1.5, 0.01, 0.02, 0.09),        // 0.015 rounds up
        ];
        for (hours, rate, weekly, monthly) in cases {
            assert_eq!(weekly_cost(hours, rate), weekly, "{hours} h × {rate}");
            assert_eq!(monthly_cost(weekly), monthly, "{weekly} × 4.33");
        }
    }

    #[test]
    fn blended_rates() {
        let cases = [
            // base, premium, total, weekend, expected
            (28.5, 2.0, 20.0, 0.0, None),
            (28.5, 2.0, 0.0, 0.0, None),
            (28.5, 2.0, 0.0, 4.0, None),
            (28.5, 2.0, 20.0, 4.0, Some(28.9)), // (16×28.5 + 4×30.5) / 20
            (32.0, 2.0, 8.0, 8.0, Some(34.0)),  // weekend only
            (35.0, 2.0, 30.0, 10.0, Some(35.67)), // 35.666…
            (25.0, 0.0, 12.0, 6.0, Some(25.0)), // no premium
            (30.0, 3.0, 12.0, 4.0, Some(31.0)),
        ];
        for (base, premium, total, weekend, expected) in cases {
            assert_eq!(
                blended_rate(base, premium, total, weekend),
                expected,
                "{base} + {premium}, {weekend} of {total} h"
            );
        }
    }

    #[test]
    fn holiday_rates() {
        let cases = [
            (28.5, DEFAULT_HOLIDAY_MULTIPLIER, 42.75),
            (32.0, 1.5, 48.0),
            (35.0, 1.5, 52.5),
            (25.55, 1.5, 38.33), // 38.325
            (30.0, 2.0, 60.0),
            (30.0, 1.0, 30.0),
        ];
        for (base, multiplier, expected) in cases {
            assert_eq!(
                holiday_rate(base, multiplier),
                expected,
                "{base} × {multiplier}"
            );
        }
    }

    #[test]
    fn care_plan_costs_together() {
        let costs = care_plan_costs(&schedule([4.0, 0.0, 4.0, 0.0, 4.0, 4.0, 4.0]), 28.5, 2.0);
        assert_eq!(
            costs,
            CarePlanCosts {
                total_weekly_hours: 20.0,
                weekly_cost: 570.0,
                monthly_cost: 2468.1,
                weekend_hours: 8.0,
                blended_rate: Some(29.3), // (12×28.5 + 8×30.5) / 20
            }
        );
        let costs = care_plan_costs(&schedule([3.5, 3.5, 3.5, 3.5, 3.5, 0.0, 0.0]), 32.0, 2.0);
        assert_eq!(
            costs,
            CarePlanCosts {
                total_weekly_hours: 17.5,
                weekly_cost: 560.0,
                monthly_cost: 2424.8,
                weekend_hours: 0.0,
                blended_rate: None,
            }
        );
    }
}
