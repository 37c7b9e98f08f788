//! Users, sign-in, sessions and single-use tokens.

use carepath_core::Error;
use carepath_core::store::{AuthTokenPurpose, CURRENT_PASSWORD_WRONG, SignInFailure};
use jiff::SignedDuration;

use crate::support::{now, open};

#[test]
fn sign_in_sessions_and_idle_timeout() {
    let mut test = open();
    let user = match test
        .store
        .verify_sign_in("STAFF@agency.test", "secret-staff", HERE)
        .unwrap()
    {
        Ok(user) => user,
        Err(failure) => panic!("sign-in refused: {failure:?}"),
    };
    assert!(!user.is_admin);
    let token = test
        .store
        .create_session(&user.id, SignedDuration::from_hours(12))
        .unwrap();
    let idle = SignedDuration::from_mins(30);
    assert!(test.store.session_user(&token, idle).unwrap().is_some());
    test.store
        .set_now(Some(now() + SignedDuration::from_mins(31)));
    assert!(
        test.store.session_user(&token, idle).unwrap().is_none(),
        "idle session must end"
    );
    assert!(test.store.session_user("forged", idle).unwrap().is_none());
}

const HERE: &str = "127.0.0.1";
const ELSEWHERE: &str = "192.0.2.7";

#[test]
fn wrong_passwords_are_throttled_after_five() {
    let mut test = open();
    for _ in 0..5 {
        assert_eq!(
            test.store
                .verify_sign_in("staff@agency.test", "wrong", HERE)
                .unwrap(),
            Err(SignInFailure::Invalid)
        );
    }
    // After five failures the account must wait there, even with the right password.
    assert_eq!(
        test.store
            .verify_sign_in("staff@agency.test", "secret-staff", HERE)
            .unwrap(),
        Err(SignInFailure::Throttled {
            retry_after_secs: 2
        })
    );
    test.store
        .set_now(Some(now() + SignedDuration::from_secs(3)));
    // A sixth failure doubles the wait.
    assert_eq!(
        test.store
            .verify_sign_in("staff@agency.test", "wrong", HERE)
            .unwrap(),
        Err(SignInFailure::Invalid)
    );
    assert_eq!(
        test.store
            .verify_sign_in("staff@agency.test", "secret-staff", HERE)
            .unwrap(),
        Err(SignInFailure::Throttled {
            retry_after_secs: 4
        })
    );
    test.store
        .set_now(Some(now() + SignedDuration::from_secs(8)));
    assert!(
        test.store
            .verify_sign_in("staff@agency.test", "secret-staff", HERE)
            .unwrap()
            .is_ok()
    );
}

/// Unknown addresses slow down exactly like real accounts, so the answers never tell
/// whether an account exists.
#[test]
fn unknown_addresses_are_throttled_like_accounts() {
    let mut test = open();
    let mut answers = Vec::new();
    for email in ["staff@agency.test", "nobody@agency.test"] {
        let mut seen = Vec::new();
        for _ in 0..7 {
            seen.push(test.store.verify_sign_in(email, "wrong", HERE).unwrap());
        }
        answers.push(seen);
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(
        answers[1][5],
        Err(SignInFailure::Throttled {
            retry_after_secs: 2
        })
    );
}

/// Someone who knows an email cannot lock its owner out: failures count per place.
#[test]
fn failures_elsewhere_do_not_lock_the_owner_out() {
    let mut test = open();
    for _ in 0..10 {
        let _ = test
            .store
            .verify_sign_in("staff@agency.test", "wrong", ELSEWHERE)
            .unwrap();
    }
    assert!(
        test.store
            .verify_sign_in("staff@agency.test", "secret-staff", HERE)
            .unwrap()
            .is_ok()
    );
}

#[test]
fn a_password_change_needs_the_current_one_and_revokes_links_and_sessions() {
    let mut test = open();
    let staff = test.staff.clone();
    let user = test
        .store
        .verify_sign_in("staff@agency.test", "secret-staff", HERE)
        .unwrap()
        .unwrap();
    let this = test
        .store
        .create_session(&user.id, SignedDuration::from_hours(12))
        .unwrap();
    let other = test
        .store
        .create_session(&user.id, SignedDuration::from_hours(12))
        .unwrap();
    let (magic, _) = test
        .store
        .create_auth_token(
            "staff@agency.test",
            AuthTokenPurpose::MagicLink,
            SignedDuration::from_mins(10),
        )
        .unwrap()
        .unwrap();
    let (recovery, _) = test
        .store
        .create_auth_token(
            "staff@agency.test",
            AuthTokenPurpose::Recovery,
            SignedDuration::from_mins(10),
        )
        .unwrap()
        .unwrap();
    let Err(Error::Validation(errors)) = test.store.change_password(
        &staff,
        &user.id,
        "not-my-password",
        "new-secret",
        "new-secret",
        Some(&this),
    ) else {
        panic!("a wrong current password must be refused");
    };
    assert_eq!(errors.message, CURRENT_PASSWORD_WRONG);
    test.store
        .change_password(
            &staff,
            &user.id,
            "secret-staff",
            "new-secret",
            "new-secret",
            Some(&this),
        )
        .unwrap();
    let idle = SignedDuration::from_mins(30);
    assert!(test.store.session_user(&this, idle).unwrap().is_some());
    assert!(test.store.session_user(&other, idle).unwrap().is_none());
    assert!(
        test.store
            .consume_auth_token(&magic, AuthTokenPurpose::MagicLink)
            .unwrap()
            .is_none(),
        "a magic link sent before the change must not sign in"
    );
    assert!(
        test.store
            .consume_auth_token(&recovery, AuthTokenPurpose::Recovery)
            .unwrap()
            .is_none(),
        "a recovery link sent before the change must not work"
    );
}

#[test]
fn recovery_tokens_are_single_use_and_expire() {
    let mut test = open();
    let (token, _) = test
        .store
        .create_auth_token(
            "staff@agency.test",
            AuthTokenPurpose::Recovery,
            SignedDuration::from_mins(10),
        )
        .unwrap()
        .unwrap();
    assert!(
        test.store
            .create_auth_token(
                "unknown@agency.test",
                AuthTokenPurpose::Recovery,
                SignedDuration::from_mins(10)
            )
            .unwrap()
            .is_none()
    );
    assert!(
        test.store
            .consume_auth_token(&token, AuthTokenPurpose::MagicLink)
            .unwrap()
            .is_none(),
        "wrong purpose"
    );
    assert!(
        test.store
            .consume_auth_token(&token, AuthTokenPurpose::Recovery)
            .unwrap()
            .is_some()
    );
    assert!(
        test.store
            .consume_auth_token(&token, AuthTokenPurpose::Recovery)
            .unwrap()
            .is_none(),
        "used twice"
    );
    let (late, _) = test
        .store
        .create_auth_token(
            "staff@agency.test",
            AuthTokenPurpose::MagicLink,
            SignedDuration::from_mins(10),
        )
        .unwrap()
        .unwrap();
    test.store
        .set_now(Some(now() + SignedDuration::from_mins(11)));
    assert!(
        test.store
            .consume_auth_token(&late, AuthTokenPurpose::MagicLink)
            .unwrap()
            .is_none(),
        "expired"
    );
}

#[test]
fn a_password_change_ends_the_other_sessions() {
    let mut test = open();
    let staff = test.staff.clone();
    let id = test.staff_id();
    let keep = test
        .store
        .create_session(&id, SignedDuration::from_hours(12))
        .unwrap();
    let other = test
        .store
        .create_session(&id, SignedDuration::from_hours(12))
        .unwrap();
    match test
        .store
        .set_password(&staff, &id, "short", "short", Some(&keep))
    {
        Err(Error::Validation(errors)) => {
            assert_eq!(errors.message, "Password must be at least 6 characters")
        }
        other => panic!("expected validation, got {other:?}"),
    }
    match test
        .store
        .set_password(&staff, &id, "long enough", "different", Some(&keep))
    {
        Err(Error::Validation(errors)) => assert_eq!(errors.message, "Passwords do not match"),
        other => panic!("expected validation, got {other:?}"),
    }
    test.store
        .set_password(&staff, &id, "long enough", "long enough", Some(&keep))
        .unwrap();
    let idle = SignedDuration::from_mins(30);
    assert!(test.store.session_user(&keep, idle).unwrap().is_some());
    assert!(test.store.session_user(&other, idle).unwrap().is_none());
}

#[test]
fn sign_up_is_by_invitation_link_only() {
    let mut test = open();
    let admin = test.admin.clone();
    let staff = test.staff.clone();
    assert!(matches!(
        test.store
            .sign_up("new@agency.test", "New Person", "password1", "guess"),
        Err(Error::Forbidden(_))
    ));
    assert!(matches!(
        test.store.invite(&staff, "new@agency.test", false),
        Err(Error::Forbidden(_))
    ));
    let token = test.store.invite(&admin, "new@agency.test", false).unwrap();
    // Knowing the invited address is not enough: the link's token is needed.
    assert!(matches!(
        test.store
            .sign_up("new@agency.test", "Intruder", "password1", "0000"),
        Err(Error::Forbidden(_))
    ));
    // Nor does one invitation's token open another address.
    let other = test
        .store
        .invite(&admin, "other@agency.test", false)
        .unwrap();
    assert!(matches!(
        test.store
            .sign_up("new@agency.test", "Intruder", "password1", &other),
        Err(Error::Forbidden(_))
    ));
    let user = test
        .store
        .sign_up("New@Agency.test", "New Person", "password1", &token)
        .unwrap();
    assert_eq!(user.email, "new@agency.test");
    assert!(matches!(
        test.store
            .sign_up("new@agency.test", "Again", "password1", &token),
        Err(Error::Forbidden(_))
    ));
    // An invitation link expires after seven days.
    test.store
        .set_now(Some(now() + SignedDuration::from_hours(7 * 24 + 1)));
    assert!(matches!(
        test.store
            .sign_up("other@agency.test", "Late", "password1", &other),
        Err(Error::Forbidden(_))
    ));
}

#[test]
fn the_last_admin_cannot_be_revoked() {
    let mut test = open();
    let admin = test.admin.clone();
    let admin_id = admin.user_id.clone().unwrap();
    assert!(matches!(
        test.store.set_admin(&admin, &admin_id, false),
        Err(Error::Rejected(_))
    ));
}
