//! Calendar feeds as last drawn, so a calendar program that asks again, or many that
//! subscribe to one feed, cost a lookup instead of a drawing of a year of visits.
//!
//! The rule, all of it: a feed is answered from here while nothing was committed since
//! it was drawn (the session cache's data version, [`SessionCache::version`], reads what
//! it read before the drawing) and for at most [`FEED_KEPT`], so its window of dates and
//! its time stamp follow the clock. A revoked feed, a disabled user or a moved visit is
//! a commit, so it shows on the very next request. Each feed carries an `ETag`: a
//! calendar program that sends it back gets 304 and no body.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::Bytes;

use crate::session_cache::SessionCache;

/// How long a drawn feed is answered at most.
pub const FEED_KEPT: Duration = Duration::from_secs(300);

/// Feeds kept at most; past it the cache starts over.
const KEPT_FEEDS: usize = 256;

/// A drawn feed: its iCalendar text and the entity tag that names it.
#[derive(Clone)]
pub struct DrawnFeed {
    pub body: Bytes,
    pub etag: String,
}

#[derive(Default)]
pub struct FeedCache {
    feeds: Mutex<HashMap<String, (DrawnFeed, i64, Instant)>>,
}

impl FeedCache {
    /// The feed of `token` as drawn, while nothing was committed since and it is recent.
    pub fn get(&self, token: &str, versions: &SessionCache) -> Option<DrawnFeed> {
        let version = versions.version()?;
        let feeds = self.feeds.lock().ok()?;
        let (feed, drawn_at, when) = feeds.get(token)?;
        (*drawn_at == version && when.elapsed() < FEED_KEPT).then(|| feed.clone())
    }

    /// Keeps `body` for `token` when nothing was committed between `before` (the data
    /// version read before drawing it) and now. Answers the feed with its entity tag.
    pub fn put(
        &self,
        token: &str,
        body: String,
        before: Option<i64>,
        versions: &SessionCache,
    ) -> DrawnFeed {
        let digest = ring::digest::digest(&ring::digest::SHA256, body.as_bytes());
        let etag = format!(
            "\"{}\"",
            digest.as_ref()[..12]
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect::<String>()
        );
        let feed = DrawnFeed {
            body: Bytes::from(body),
            etag,
        };
        if let (Some(before), Some(now)) = (before, versions.version())
            && before == now
            && let Ok(mut feeds) = self.feeds.lock()
        {
            if feeds.len() >= KEPT_FEEDS {
                feeds.clear();
            }
            feeds.insert(token.to_owned(), (feed.clone(), now, Instant::now()));
        }
        feed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carepath_core::model::{Actor, Channel};
    use carepath_core::store::{NewUser, Store};

    fn commit(store: &mut Store, n: u32) {
        let new = NewUser {
            email: format!("user{n}@agency.test"),
            full_name: format!("User {n}"),
            password: None,
            is_admin: false,
        };
        store
            .create_user(&Actor::system(Channel::Cli), new)
            .unwrap();
    }

    #[test]
    fn a_feed_is_answered_until_the_next_commit_and_one_drawn_across_a_commit_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("feeds.db");
        let mut writer = Store::open(&path).unwrap();
        let versions = SessionCache::open(&path).unwrap();
        let cache = FeedCache::default();

        let drawn = cache.put(
            "token",
            "BEGIN:VCALENDAR".to_owned(),
            versions.version(),
            &versions,
        );
        let again = cache
            .get("token", &versions)
            .expect("kept while nothing changed");
        assert_eq!(again.body, drawn.body);
        assert_eq!(again.etag, drawn.etag);
        assert!(cache.get("other", &versions).is_none());

        commit(&mut writer, 1);
        assert!(cache.get("token", &versions).is_none(), "a commit ends it");

        let before = versions.version();
        commit(&mut writer, 2);
        cache.put("token", "BEGIN:VCALENDAR".to_owned(), before, &versions);
        assert!(
            cache.get("token", &versions).is_none(),
            "drawn while a commit landed: not kept"
        );
    }

    #[test]
    fn the_entity_tag_follows_the_text() {
        let dir = tempfile::tempdir().unwrap();
        let versions = SessionCache::open(&dir.path().join("feeds.db")).unwrap();
        let cache = FeedCache::default();
        let one = cache.put("a", "one".to_owned(), None, &versions);
        let two = cache.put("b", "two".to_owned(), None, &versions);
        let one_again = cache.put("c", "one".to_owned(), None, &versions);
        assert_ne!(one.etag, two.etag);
        assert_eq!(one.etag, one_again.etag);
        assert!(one.etag.starts_with('"') && one.etag.ends_with('"'));
    }
}
