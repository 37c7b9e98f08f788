//! The figures of the analytics screen that are arithmetic on lists of durations and
//! counts: median, 90th percentile, conversion and drop-off.

/// Analytics ranges longer than this many days are refused (about three years).
pub const MAX_RANGE_DAYS: i64 = 1100;
/// The default range when none is given: the last 90 days, today included.
pub const DEFAULT_RANGE_DAYS: i64 = 90;

/// One decimal place, as the screen shows it.
pub fn round1(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

/// The median (the mean of the two middle values when the count is even), or None for
/// no values.
pub fn median(values: &[f64]) -> Option<f64> {
    let sorted = sorted(values);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// The 90th percentile by nearest rank: the smallest value with at least 90% of the
/// values at or below it (of 10 values, the 9th; of 3, the 3rd).
pub fn percentile_90(values: &[f64]) -> Option<f64> {
    let sorted = sorted(values);
    if sorted.is_empty() {
        return None;
    }
    // ceil(0.9 n) without floating point: (9n + 9) / 10.
    let rank = (9 * sorted.len()).div_ceil(10).max(1);
    Some(sorted[rank - 1])
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// Share of `previous` that reached `count`, in percent with one decimal; None when the
/// previous step had no one.
pub fn conversion_percent(count: i64, previous: i64) -> Option<f64> {
    (previous > 0).then(|| round1(count as f64 * 100.0 / previous as f64))
}

/// A status word as a label: `not_interested` → "Not interested".
pub fn status_label(status: &str) -> String {
    let words = status.replace('_', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_percentiles() {
        let cases: [(&[f64], Option<f64>, Option<f64>); 6] = [
            (&[], None, None),
            (&[4.0], Some(4.0), Some(4.0)),
            (&[3.0, 1.0], Some(2.0), Some(3.0)),
            (&[5.0, 1.0, 3.0], Some(3.0), Some(5.0)),
            (
                &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
                Some(5.5),
                Some(9.0),
            ),
            (
                &[10.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 11.0],
                Some(6.0),
                Some(10.0),
            ),
        ];
        for (values, expected_median, expected_p90) in cases {
            assert_eq!(median(values), expected_median, "{values:?}");
            assert_eq!(percentile_90(values), expected_p90, "{values:?}");
        }
    }

    #[test]
    fn conversions_and_labels() {
        assert_eq!(conversion_percent(2, 3), Some(66.7));
        assert_eq!(conversion_percent(0, 4), Some(0.0));
        assert_eq!(conversion_percent(1, 0), None);
        assert_eq!(status_label("not_interested"), "Not interested");
        assert_eq!(status_label("declined"), "Declined");
    }
}
