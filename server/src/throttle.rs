//! Per-address throttling of the sign-in endpoints and of bad family links: a token
//! bucket per client address (a burst, then one attempt per interval). Per-account
//! throttling lives in core.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use carepath_core::store::Store;

use crate::AppState;
use crate::error::{ApiError, ApiResult, TOO_MANY_ATTEMPTS};
use crate::extract::ClientAddr;

pub struct Throttle {
    burst: f64,
    refill: Duration,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl Throttle {
    pub fn new(burst: u32, refill: Duration) -> Self {
        Self {
            burst: f64::from(burst.max(1)),
            refill: refill.max(Duration::from_millis(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one attempt for `address`; Err(seconds to wait) when none is left.
    pub fn check(&self, address: IpAddr) -> Result<(), u64> {
        self.check_at(address, Instant::now())
    }

    /// Gives back an attempt taken with [`Throttle::check`] (up to the burst): the
    /// family's links take one before they are looked up, so simultaneous bad links can
    /// never spend more than the address has, and give it back when the link was good.
    pub fn refund(&self, address: IpAddr) {
        if let Ok(mut buckets) = self.buckets.lock()
            && let Some(bucket) = buckets.get_mut(&address)
        {
            bucket.tokens = (bucket.tokens + 1.0).min(self.burst);
        }
    }

    fn check_at(&self, address: IpAddr, now: Instant) -> Result<(), u64> {
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        // Forget addresses that have refilled completely, so the map stays small.
        if buckets.len() > 10_000 {
            let full = self.refill.mul_f64(self.burst);
            buckets.retain(|_, bucket| now.duration_since(bucket.updated) < full);
        }
        let bucket = buckets.entry(address).or_insert(Bucket {
            tokens: self.burst,
            updated: now,
        });
        let earned = now.duration_since(bucket.updated).as_secs_f64() / self.refill.as_secs_f64();
        bucket.tokens = (bucket.tokens + earned).min(self.burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) * self.refill.as_secs_f64();
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

/// Runs `f` for a link, unless this address has sent too many bad links. An attempt is
/// taken before the link is looked up and given back unless the link was bad, so links
/// sent all at once can never spend more attempts than the address has.
pub async fn with_link<T: Send + 'static>(
    state: &AppState,
    client: &ClientAddr,
    f: impl FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
) -> ApiResult<T> {
    if let Some(address) = client.ip() {
        state
            .link_throttle
            .check(address)
            .map_err(|wait| ApiError::rate_limited(TOO_MANY_ATTEMPTS, wait))?;
    }
    let result = state.db.call(f).await;
    let bad_link = matches!(&result, Err(error) if error.code == "link_unavailable");
    if let (false, Some(address)) = (bad_link, client.ip()) {
        state.link_throttle.refund(address);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_a_burst_then_one_per_interval() {
        let throttle = Throttle::new(10, Duration::from_secs(60));
        let address: IpAddr = [127, 0, 0, 1].into();
        let start = Instant::now();
        for _ in 0..10 {
            assert!(throttle.check_at(address, start).is_ok());
        }
        assert_eq!(throttle.check_at(address, start), Err(60));
        assert_eq!(
            throttle.check_at(address, start + Duration::from_secs(30)),
            Err(30)
        );
        assert!(
            throttle
                .check_at(address, start + Duration::from_secs(61))
                .is_ok()
        );
        let other: IpAddr = [10, 0, 0, 1].into();
        assert!(throttle.check_at(other, start).is_ok());
    }

    #[test]
    fn a_refunded_attempt_can_be_taken_again_but_never_beyond_the_burst() {
        let throttle = Throttle::new(2, Duration::from_secs(60));
        let address: IpAddr = [127, 0, 0, 3].into();
        let start = Instant::now();
        assert!(throttle.check_at(address, start).is_ok());
        assert!(throttle.check_at(address, start).is_ok());
        assert!(throttle.check_at(address, start).is_err());
        throttle.refund(address);
        assert!(throttle.check_at(address, start).is_ok());
        assert!(throttle.check_at(address, start).is_err());
        for _ in 0..5 {
            throttle.refund(address);
        }
        assert!(throttle.check_at(address, start).is_ok());
        assert!(throttle.check_at(address, start).is_ok());
        assert!(throttle.check_at(address, start).is_err());
    }
}
