//! A coordinator's queue read from the store: each kind of row joins it when it falls
//! due and only in its owner's (or assignee's) queue, most late first; a snooze hides a
//! row until its day, Mark Done and reading a reply take it away, and each action is a
//! line in the client's timeline.

use carepath_core::model::{
    Actor, IntakeId, Parents, QueueDoneInput, QueueKind, Reply, SnoozeInput, TaskInput, UserId,
};
use carepath_core::rules::queue::{QUEUE_MAX, QUEUE_PAGE, queue_limit};
use carepath_core::store::{AssessmentSave, ClientQuery, CommunicationFilter, OwnerFilter, Store};

use crate::support::{TestStore, assessment_form, at, intake_form, open};

/// An intake made `day` (15:00 UTC), with a follow-up that day at 11:00 in New York.
fn intake(store: &mut Store, staff: &Actor, name: &str, day: &str, phone: &str) -> IntakeId {
    store.set_now(Some(at(&format!("{day}T15:00:00Z"))));
    let mut form = intake_form(name);
    form.caller_phone = phone.into();
    form.next_follow_up_date = day.into();
    form.next_follow_up_time = "11:00".into();
    store.create_intake(staff, form).unwrap().id
}

/// Walks a client to a sent proposal on `day` (and a sent contract the day after).
fn to_sent_proposal(
    store: &mut Store,
    staff: &Actor,
    intake_id: &IntakeId,
    name: &str,
    day: &str,
) -> carepath_core::model::CarePlanId {
    store.set_now(Some(at(&format!("{day}T15:00:00Z"))));
    let assessment = store
        .save_assessment(
            staff,
            AssessmentSave {
                existing: None,
                intake_id: Some(intake_id.clone()),
                form: assessment_form(name),
                complete: true,
            },
        )
        .unwrap();
    let mut plan = store.care_plan_prefill(&assessment.id).unwrap().plan;
    plan.family_contact_email = "family@example.com".into();
    let plan = store
        .create_care_plan(staff, Some(&assessment.id), plan)
        .unwrap();
    store.mark_care_plan_sent(staff, &plan.id).unwrap();
    plan.id
}

fn rows(store: &Store, owner: &UserId) -> Vec<(QueueKind, String, String)> {
    store
        .queue(owner, QUEUE_PAGE)
        .unwrap()
        .items
        .into_iter()
        .map(|item| (item.kind, item.client_name, item.when))
        .collect()
}

fn timeline(store: &Store, intake_id: &IntakeId) -> Vec<String> {
    store
        .communications(&CommunicationFilter {
            parents: Parents {
                intake_id: Some(intake_id.clone()),
                ..Parents::default()
            },
            visibility: None,
        })
        .unwrap()
        .into_iter()
        .map(|c| c.content)
        .collect()
}

fn admin_id(test: &TestStore) -> UserId {
    test.admin.user_id.clone().unwrap()
}

#[test]
fn the_queue_holds_each_kind_of_due_work_of_its_owner_most_late_first() {
    let mut test = open();
    let staff = test.staff.clone();
    let admin = test.admin.clone();
    let sam = test.staff_id();
    let ada = admin_id(&test);
    let store = &mut test.store;
    // Sam's clients: a follow-up three days overdue, a proposal sent eight days ago
    // (past its 3 days, and in the Care Plan stage past the 7-day alert), a contract
    // sent five days ago, a reply nobody read. Ada's client has a follow-up overdue too.
    let fay = intake(store, &staff, "Fay Follow", "2026-11-19", "(217) 555-0001");
    let pia = intake(
        store,
        &staff,
        "Pia Proposal",
        "2026-11-10",
        "(217) 555-0002",
    );
    to_sent_proposal(store, &staff, &pia, "Pia Proposal", "2026-11-14");
    let cal = intake(
        store,
        &staff,
        "Cal Contract",
        "2026-11-10",
        "(217) 555-0003",
    );
    let plan = to_sent_proposal(store, &staff, &cal, "Cal Contract", "2026-11-16");
    store.set_now(Some(at("2026-11-17T15:00:00Z")));
    let contract = store
        .create_contract(&staff, &plan, None, "Agreement")
        .unwrap();
    store.mark_contract_sent(&staff, &contract.id).unwrap();
    let rae = intake(store, &staff, "Rae Reply", "2026-11-22", "(217) 555-0004");
    intake(store, &admin, "Abe Other", "2026-11-19", "(217) 555-0005");
    store.set_now(Some(at("2026-11-22T16:00:00Z")));
    store
        .record_reply(&Reply {
            from: "+1 217 555 0004".into(),
            body: "Can we move it to Tuesday?".into(),
            provider_id: "SM1".into(),
        })
        .unwrap();
    // Sunday 22 November, 1 PM in New York.
    store.set_now(Some(at("2026-11-22T18:00:00Z")));

    let queue = store.queue(&sam, QUEUE_PAGE).unwrap();
    let due: Vec<&str> = queue.items.iter().map(|i| i.due_at.as_str()).collect();
    let mut sorted = due.clone();
    sorted.sort_unstable();
    assert_eq!(due, sorted, "most late first");
    assert_eq!(
        rows(store, &sam),
        [
            // The follow-ups of clients made on the 10th fell due that day (a tie: by name).
            (
                QueueKind::FollowUp,
                "Cal Contract".into(),
                "12 days late".into()
            ),
            (
                QueueKind::FollowUp,
                "Pia Proposal".into(),
                "12 days late".into()
            ),
            // Sent on the 14th, due three days later.
            (
                QueueKind::Proposal,
                "Pia Proposal".into(),
                "5 days late".into()
            ),
            (
                QueueKind::FollowUp,
                "Fay Follow".into(),
                "3 days late".into()
            ),
            (
                QueueKind::Contract,
                "Cal Contract".into(),
                "2 days late".into()
            ),
            (
                QueueKind::StageAlert,
                "Pia Proposal".into(),
                "1 day late".into()
            ),
            (
                QueueKind::FollowUp,
                "Rae Reply".into(),
                "Today at 11:00 AM".into()
            ),
            (
                QueueKind::Reply,
                "Rae Reply".into(),
                "Today at 11:00 AM".into()
            ),
        ]
    );
    let reply = queue
        .items
        .iter()
        .find(|i| i.kind == QueueKind::Reply)
        .unwrap();
    assert_eq!(reply.title, "1 unread reply");
    assert_eq!(reply.detail.as_deref(), Some("Can we move it to Tuesday?"));
    assert_eq!(reply.route, format!("/clients/{rae}?tab=communications"));
    let proposal = queue
        .items
        .iter()
        .find(|i| i.kind == QueueKind::Proposal)
        .unwrap();
    assert_eq!(proposal.title, "Proposal sent 8 days ago, no answer yet");
    assert!(proposal.route.starts_with("/care-plans/new?care_plan_id="));
    // Ada's own client is in her queue only.
    assert_eq!(
        rows(store, &ada),
        [(
            QueueKind::FollowUp,
            "Abe Other".into(),
            "3 days late".into()
        )]
    );

    // A proposal snoozed to Wednesday with a reason leaves until then, and says so.
    store
        .snooze_queue_row(
            &staff,
            &SnoozeInput {
                kind: Some(QueueKind::Proposal),
                id: pia.to_string(),
                until: "2026-11-25".into(),
                reason: "The family is deciding this weekend".into(),
            },
        )
        .unwrap();
    assert!(!rows(store, &sam).iter().any(|r| r.0 == QueueKind::Proposal));
    assert!(timeline(store, &pia).contains(
        &"Proposal follow-up snoozed until November 25, 2026: The family is deciding this weekend"
            .to_owned()
    ));
    // A follow-up snoozed moves to its day, keeping its time.
    store
        .snooze_queue_row(
            &staff,
            &SnoozeInput {
                kind: Some(QueueKind::FollowUp),
                id: fay.to_string(),
                until: "2026-11-24".into(),
                reason: "Out of town".into(),
            },
        )
        .unwrap();
    let form = store.get_intake(&fay).unwrap().form;
    assert_eq!(
        (
            form.next_follow_up_date.as_str(),
            form.next_follow_up_time.as_str()
        ),
        ("2026-11-24", "11:00")
    );
    assert!(
        !rows(store, &sam)
            .iter()
            .any(|r| r.1 == "Fay Follow" && r.0 == QueueKind::FollowUp)
    );
    // Done: the follow-up is cleared; reading the client's replies takes the reply away.
    store
        .mark_queue_row_done(
            &staff,
            &QueueDoneInput {
                kind: Some(QueueKind::FollowUp),
                id: rae.to_string(),
            },
        )
        .unwrap();
    assert_eq!(store.mark_replies_read(&staff, &rae).unwrap(), 1);
    assert_eq!(
        store.mark_replies_read(&staff, &rae).unwrap(),
        0,
        "read once"
    );
    assert!(!rows(store, &sam).iter().any(|r| r.1 == "Rae Reply"));
    let lines = timeline(store, &rae);
    assert!(lines.contains(&"Follow-up done".to_owned()), "{lines:?}");
    assert!(lines.contains(&"1 reply read".to_owned()), "{lines:?}");
    let read_at = store
        .communications(&CommunicationFilter {
            parents: Parents {
                intake_id: Some(rae.clone()),
                ..Parents::default()
            },
            visibility: None,
        })
        .unwrap()
        .into_iter()
        .find(|c| c.content == "Can we move it to Tuesday?")
        .unwrap()
        .read_at;
    assert_eq!(read_at.as_deref(), Some("2026-11-22T18:00:00.000Z"));

    // A task Ada gives Sam for Monday joins his queue on Monday, from Ada.
    let task = store
        .add_task(
            &admin,
            &fay,
            &TaskInput {
                assignee_id: Some(sam.clone()),
                due_date: "2026-11-23".into(),
                note: "Call her daughter".into(),
            },
        )
        .unwrap();
    assert_eq!(task.assignee_name, "Sam Staff");
    assert!(!rows(store, &sam).iter().any(|r| r.0 == QueueKind::Task));
    store.set_now(Some(at("2026-11-23T14:00:00Z")));
    let queue = store.queue(&sam, QUEUE_PAGE).unwrap();
    let row = queue
        .items
        .iter()
        .find(|i| i.kind == QueueKind::Task)
        .unwrap();
    assert_eq!(
        (row.title.as_str(), row.when.as_str()),
        ("Task from Ada Admin", "Due today")
    );
    assert_eq!(row.detail.as_deref(), Some("Call her daughter"));
    store
        .mark_queue_row_done(
            &staff,
            &QueueDoneInput {
                kind: Some(QueueKind::Task),
                id: task.id.to_string(),
            },
        )
        .unwrap();
    assert!(!rows(store, &sam).iter().any(|r| r.0 == QueueKind::Task));
    assert!(timeline(store, &fay).contains(&"Task done: Call her daughter".to_owned()));
    // Wednesday: the snoozed proposal is back.
    store.set_now(Some(at("2026-11-25T14:00:00Z")));
    assert!(rows(store, &sam).iter().any(|r| r.0 == QueueKind::Proposal));
}

#[test]
fn a_client_belongs_to_its_creator_or_the_named_coordinator_and_moves_with_a_timeline_line() {
    let mut test = open();
    let staff = test.staff.clone();
    let admin = test.admin.clone();
    let sam = test.staff_id();
    let ada = admin_id(&test);
    let mine = test
        .store
        .create_intake(&staff, intake_form("Mia Mine"))
        .unwrap();
    let mut named = intake_form("Nia Named");
    named.assigned_coordinator = "Ada Admin".into();
    let named = test.store.create_intake(&staff, named).unwrap();
    assert_eq!(
        test.store
            .client_owner(&mine.id)
            .unwrap()
            .unwrap()
            .full_name,
        "Sam Staff"
    );
    assert_eq!(test.store.client_owner(&named.id).unwrap().unwrap().id, ada);

    let page = |store: &Store, owner: OwnerFilter| {
        let page = store
            .clients_page(&ClientQuery {
                owner: Some(owner),
                ..ClientQuery::default()
            })
            .unwrap();
        let names: Vec<(String, Option<String>)> = page
            .items
            .iter()
            .map(|row| (row.intake.client_full_name.clone(), row.owner_name.clone()))
            .collect();
        (names, page.counts.total, page.counts.intake)
    };
    assert_eq!(
        page(&test.store, OwnerFilter::User(sam.clone())),
        (vec![("Mia Mine".into(), Some("Sam Staff".into()))], 1, 1)
    );
    assert_eq!(page(&test.store, OwnerFilter::Unassigned), (vec![], 0, 0));

    // Moved to Ada from the profile: the form's coordinator follows, the counts too.
    test.store
        .set_client_owner(
            &admin,
            &mine.id,
            &carepath_core::model::OwnerInput {
                owner_id: Some(ada.clone()),
            },
        )
        .unwrap();
    assert_eq!(
        test.store
            .get_intake(&mine.id)
            .unwrap()
            .form
            .assigned_coordinator,
        "Ada Admin"
    );
    assert_eq!(page(&test.store, OwnerFilter::User(sam.clone())).1, 0);
    assert_eq!(page(&test.store, OwnerFilter::User(ada.clone())).1, 2);
    assert!(
        timeline(&test.store, &mine.id)
            .contains(&"Coordinator changed from Sam Staff to Ada Admin".to_owned())
    );
    // Unassigned, then back to Sam by typing his name on the form.
    test.store
        .set_client_owner(
            &admin,
            &mine.id,
            &carepath_core::model::OwnerInput { owner_id: None },
        )
        .unwrap();
    assert_eq!(page(&test.store, OwnerFilter::Unassigned).1, 1);
    let intake = test.store.get_intake(&mine.id).unwrap();
    let mut form = intake.form.clone();
    form.assigned_coordinator = "Sam Staff".into();
    test.store
        .update_intake(&staff, &mine.id, intake.version, form)
        .unwrap();
    assert_eq!(test.store.client_owner(&mine.id).unwrap().unwrap().id, sam);
    assert!(timeline(&test.store, &mine.id).contains(&"Coordinator set to Sam Staff".to_owned()));
    // A disabled user keeps their clients, named.
    test.store
        .disable_user(&Actor::system(carepath_core::model::Channel::Cli), &ada)
        .unwrap();
    assert_eq!(
        page(&test.store, OwnerFilter::User(ada.clone())).0,
        vec![("Nia Named".into(), Some("Ada Admin".into()))]
    );
    // Nobody can be given a client who is not active staff.
    let refused = test.store.set_client_owner(
        &staff,
        &named.id,
        &carepath_core::model::OwnerInput {
            owner_id: Some(ada.clone()),
        },
    );
    assert!(
        matches!(&refused, Err(carepath_core::error::Error::Validation(errors)) if errors.fields["owner_id"] == "Choose an active member of staff."),
        "{refused:?}"
    );
}

#[test]
fn a_full_queue_shows_the_most_late_rows_of_every_kind_a_page_at_a_time() {
    let mut test = open();
    let staff = test.staff.clone();
    let sam = test.staff_id();
    let store = &mut test.store;
    // 60 clients made a day apart from 1 September (15:00 UTC), each with a stage alert
    // due seven days later and a follow-up due thirty days later at 11:00 in New York:
    // the stage alerts, read first, are more late, and the top fifty still takes the
    // follow-ups due before the fiftieth stage alert.
    let first = jiff::civil::date(2026, 9, 1);
    let zone = jiff::tz::TimeZone::get("America/New_York").unwrap();
    let now = at("2026-11-22T18:00:00Z");
    let mut expected = Vec::new();
    for n in 0..60 {
        let day = first.checked_add(jiff::Span::new().days(n)).unwrap();
        let follow_up_day = day.checked_add(jiff::Span::new().days(30)).unwrap();
        let name = format!("Client {n:02}");
        let made = at(&format!("{day}T15:00:00Z"));
        store.set_now(Some(made));
        let mut form = intake_form(&name);
        form.next_follow_up_date = follow_up_day.to_string();
        form.next_follow_up_time = "11:00".into();
        store.create_intake(&staff, form).unwrap();
        let follow_up = follow_up_day
            .at(11, 0, 0, 0)
            .to_zoned(zone.clone())
            .unwrap()
            .timestamp();
        if follow_up < now {
            expected.push((follow_up, QueueKind::FollowUp, name.clone()));
        }
        let alert = made
            .checked_add(jiff::SignedDuration::from_hours(7 * 24))
            .unwrap();
        expected.push((alert, QueueKind::StageAlert, name));
    }
    store.set_now(Some(now));
    expected.sort();
    let every = expected.clone();
    expected.truncate(50);
    assert!(
        expected.iter().any(|row| row.1 == QueueKind::FollowUp),
        "the follow-ups are among the most late"
    );

    let shown = |queue: &carepath_core::model::Queue| -> Vec<(jiff::Timestamp, QueueKind, String)> {
        queue
            .items
            .iter()
            .map(|item| (at(&item.due_at), item.kind, item.client_name.clone()))
            .collect()
    };
    // The first page, then "Show more" a page at a time: each the most late of all.
    let first = store.queue(&sam, queue_limit(None)).unwrap();
    assert_eq!(shown(&first), expected[..QUEUE_PAGE]);
    assert!(first.more, "more rows are due than the queue shows");
    assert_eq!(first.more_limit, Some(50));
    let second = store.queue(&sam, queue_limit(first.more_limit)).unwrap();
    assert_eq!(shown(&second), expected);
    assert!(second.more);
    assert_eq!(second.more_limit, Some(75));
    // Every due row fits a queue of 200: nothing more, and no more to ask for.
    let all = store.queue(&sam, QUEUE_MAX).unwrap();
    assert_eq!(shown(&all), every);
    assert!(!all.more);
    assert_eq!(all.more_limit, None);
    // Out of bounds asks are bounded, as the lists' pages are.
    assert_eq!(queue_limit(Some(0)), 1);
    assert_eq!(queue_limit(Some(5_000)), QUEUE_MAX);
}
