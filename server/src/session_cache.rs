//! Signed-in users by session token, so a request does not read the database to learn
//! who sent it.
//!
//! The rule, all of it: an entry is answered while `PRAGMA data_version` on the cache's
//! own connection still reads what it read when the entry was looked up, and until the
//! session's deadline (its end, or its next last-seen touch). Any commit by any
//! connection of any process moves that version, and a moved version empties the cache.
//! So a sign-out, a password change, a disabled account or a changed idle timeout takes
//! effect on the very next request. An entry whose lookup overlapped a commit (the
//! lookup's own last-seen touch included) is not kept; the next request caches it.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use carepath_core::store::{SessionUser, Store};
use jiff::Timestamp;

pub struct SessionCache {
    state: Mutex<CacheState>,
}

struct CacheState {
    watch: Store,
    /// The data version the entries were looked up under.
    version: i64,
    users: HashMap<String, (SessionUser, Timestamp)>,
}

/// Sessions kept at most; past it the cache starts over.
const CACHED_SESSIONS: usize = 4_096;

impl SessionCache {
    pub fn open(path: &Path) -> carepath_core::Result<Self> {
        let watch = Store::open(path)?;
        let version = watch.data_version()?;
        Ok(Self {
            state: Mutex::new(CacheState {
                watch,
                version,
                users: HashMap::new(),
            }),
        })
    }

    /// The data version now: take it before a lookup and pass it to
    /// [`SessionCache::put`] with what the lookup found.
    pub fn version(&self) -> Option<i64> {
        self.state.lock().ok()?.watch.data_version().ok()
    }

    /// The cached user of `token`, when nothing was committed since it was looked up
    /// and its deadline is ahead.
    pub fn get(&self, token: &str) -> Option<SessionUser> {
        let mut state = self.state.lock().ok()?;
        let version = state.watch.data_version().ok()?;
        if version != state.version {
            state.users.clear();
            state.version = version;
            return None;
        }
        let (user, until) = state.users.get(token)?;
        (Timestamp::now() < *until).then(|| user.clone())
    }

    /// Keeps `user` for `token` until `until`, if nothing was committed since `before`.
    pub fn put(&self, token: &str, user: &SessionUser, until: Timestamp, before: Option<i64>) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let Ok(version) = state.watch.data_version() else {
            return;
        };
        if before != Some(version) {
            return;
        }
        if version != state.version {
            state.users.clear();
            state.version = version;
        }
        if state.users.len() >= CACHED_SESSIONS {
            state.users.clear();
        }
        state.users.insert(token.to_owned(), (user.clone(), until));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use carepath_core::model::{Actor, Channel};
    use carepath_core::store::NewUser;
    use jiff::SignedDuration;

    fn later() -> Timestamp {
        Timestamp::now() + SignedDuration::from_hours(1)
    }

    /// Any commit is enough to change the data version; a new user is one.
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
    fn any_commit_anywhere_empties_the_cache_and_a_lookup_that_overlapped_one_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sessions.db");
        let mut writer = Store::open(&path).unwrap();
        commit(&mut writer, 0);
        let user_id = writer.users().unwrap().remove(0).id;
        let token = writer
            .create_session(&user_id, SignedDuration::from_hours(1))
            .unwrap();
        let user = writer
            .session_user(&token, SignedDuration::from_hours(1))
            .unwrap()
            .unwrap();
        let cache = SessionCache::open(&path).unwrap();

        cache.put(&token, &user, later(), cache.version());
        assert!(
            cache.get(&token).is_some(),
            "kept while nothing is committed"
        );

        commit(&mut writer, 1);
        assert!(cache.get(&token).is_none(), "another connection committed");

        let before = cache.version();
        commit(&mut writer, 2);
        cache.put(&token, &user, later(), before);
        assert!(
            cache.get(&token).is_none(),
            "the lookup overlapped a commit"
        );

        cache.put(&token, &user, Timestamp::now(), cache.version());
        assert!(cache.get(&token).is_none(), "past its deadline");
    }
}
