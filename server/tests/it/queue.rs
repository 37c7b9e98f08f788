//! The queue over HTTP: a coordinator's Today lists their overdue follow-up, today's
//! visit, an unread reply and a due task (and nobody else's), most late first; snooze,
//! Mark Done, a new task, reading the replies and giving the client to a colleague each
//! move the rows and write the client's timeline. The clients list filters by owner.

use carepath_core::model::{Actor, Channel, IntakeForm, Reply, UserId, VisitInput};
use carepath_core::store::Store;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Session, TestServer, expect_error, expect_json, intake_form};

async fn my_id(session: &Session) -> String {
    let me = session.ok("/api/auth/me").await;
    me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned()
}

/// (kind, client) of each row of a queue, in its order.
async fn rows(session: &Session, path: &str) -> Vec<(String, String)> {
    let queue = session.ok(path).await;
    queue["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["kind"].as_str().unwrap().to_owned(),
                row["client_name"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

async fn timeline(session: &Session, intake_id: &str) -> Vec<String> {
    let items = session
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await;
    items["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_coordinator_s_today_lists_their_due_work_and_each_action_moves_it() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let admin = server.admin().await;
    let sam = my_id(&staff).await;
    let ada = my_id(&admin).await;

    // What is due is set up on the file as it was on earlier days: a follow-up of
    // Sam's due two days ago, one of Ada's, and a visit of Sam's late today.
    let mut store = Store::open(&server.db).unwrap();
    let clock = store.clock().unwrap();
    let two_days_ago = clock
        .today()
        .checked_sub(jiff::Span::new().days(2))
        .unwrap();
    store.set_now(Some(clock.start_of_day(two_days_ago)));
    let form = |name: &str, phone: &str, due: Option<String>| {
        let mut form: IntakeForm = serde_json::from_value(intake_form(name)).unwrap();
        form.caller_phone = phone.into();
        if let Some(day) = due {
            form.next_follow_up_date = day;
            form.next_follow_up_time = "10:00".into();
        }
        form
    };
    let follow_up = |name: &str, phone: &str| form(name, phone, Some(two_days_ago.to_string()));
    let as_user = |id: &str| Actor::user(UserId::from(id), Channel::Web, false);
    let fay = store
        .create_intake(&as_user(&sam), follow_up("Fay Follow", "(217) 555-0101"))
        .unwrap()
        .id;
    store
        .create_intake(&as_user(&ada), follow_up("Abe Other", "(217) 555-0102"))
        .unwrap();
    store.set_now(Some(clock.start_of_today()));
    let vera = store
        .create_intake(&as_user(&sam), form("Vera Visit", "(217) 555-0103", None))
        .unwrap()
        .id;
    let visit = store
        .schedule_visit(
            &as_user(&sam),
            &vera,
            &VisitInput {
                date: clock.today().to_string(),
                start_time: "23:30".into(),
                duration_minutes: 30,
                place: "12 Oak St".into(),
                assessor_id: UserId::from(sam.as_str()),
                notes: String::new(),
            },
        )
        .unwrap()
        .visit;
    store.set_now(None);
    let rae = store
        .create_intake(&as_user(&sam), form("Rae Reply", "(217) 555-0104", None))
        .unwrap()
        .id;
    store
        .record_reply(&Reply {
            from: "+1 217 555 0104".into(),
            body: "Can we talk tomorrow?".into(),
            provider_id: "SMqueue1".into(),
        })
        .unwrap();
    drop(store);

    let mine = rows(&staff, "/api/queue").await;
    let mut expected = vec![
        ("follow_up".to_owned(), "Fay Follow".to_owned()),
        ("visit".to_owned(), "Vera Visit".to_owned()),
        ("reply".to_owned(), "Rae Reply".to_owned()),
    ];
    let mut sorted = mine.clone();
    sorted.sort();
    expected.sort();
    assert_eq!(sorted, expected, "{mine:?}");
    assert_eq!(
        mine[0],
        ("follow_up".to_owned(), "Fay Follow".to_owned()),
        "most late first"
    );
    let queue = staff.ok("/api/queue").await;
    assert_eq!(queue["owner_name"], "Sam Staff");
    assert_eq!(queue["items"][0]["when"], "2 days late");
    assert_eq!(queue["items"][0]["action"], "log_call");
    assert_eq!(queue["items"][0]["action_label"], "Log a Call");
    // A colleague may look at Sam's queue; Ada's own holds her client only.
    assert_eq!(
        rows(&admin, &format!("/api/queue?user_id={sam}")).await,
        mine
    );
    assert_eq!(
        rows(&admin, "/api/queue").await,
        [("follow_up".to_owned(), "Abe Other".to_owned())]
    );

    // The clients list: Mine is Sam's three, each with his name; nobody is unassigned.
    let page = staff.ok("/api/clients?owner=me").await;
    let mut names: Vec<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["client_full_name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["Fay Follow", "Rae Reply", "Vera Visit"]);
    assert_eq!(page["counts"]["total"], 3);
    assert_eq!(page["items"][0]["owner_name"], "Sam Staff");
    assert_eq!(
        staff.ok(&format!("/api/clients?owner={ada}")).await["counts"]["total"],
        1
    );
    assert_eq!(
        staff.ok("/api/clients?owner=unassigned").await["counts"]["total"],
        0
    );
    // The dashboard filtered to Mine: Sam's clients in its lists and cards.
    let dashboard = staff.ok("/api/dashboard?owner=me").await;
    let mut recent: Vec<&str> = dashboard["recent_activity"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["client_full_name"].as_str().unwrap())
        .collect();
    recent.sort_unstable();
    assert_eq!(recent, ["Fay Follow", "Rae Reply", "Vera Visit"]);
    assert_eq!(dashboard["counts"]["new_intakes"], 3, "{dashboard}");
    let agency = staff.ok("/api/dashboard").await;
    assert_eq!(agency["recent_activity"].as_array().unwrap().len(), 4);

    // A task for today, with its checks first.
    let (code, _, body) = expect_error(
        staff
            .post(
                &format!("/api/clients/{fay}/tasks"),
                json!({"due_date": "2020-01-01", "note": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(code, "validation");
    let fields = &body["error"]["fields"];
    assert_eq!(fields["due_date"], "Date should be in the future");
    assert_eq!(fields["note"], "Please enter what needs doing");
    let today = staff.ok("/api/queue").await["today"]
        .as_str()
        .unwrap()
        .to_owned();
    let task = expect_json(
        staff
            .post(
                &format!("/api/clients/{rae}/tasks"),
                json!({"due_date": today, "note": "Call her daughter"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(task["assignee_name"], "Sam Staff");
    assert!(
        rows(&staff, "/api/queue")
            .await
            .contains(&("task".to_owned(), "Rae Reply".to_owned()))
    );
    let tasks = staff.ok(&format!("/api/clients/{rae}/tasks")).await;
    assert_eq!(tasks["items"][0]["note"], "Call her daughter");

    // Snooze: today is refused; tomorrow with a reason moves the follow-up.
    let tomorrow = jiff::civil::Date::strptime("%Y-%m-%d", &today)
        .unwrap()
        .tomorrow()
        .unwrap()
        .to_string();
    let (_, _, body) = expect_error(
        staff
            .post(
                "/api/queue/snooze",
                json!({"kind": "follow_up", "id": fay, "until": today, "reason": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        body["error"]["fields"]["until"],
        "Snooze until a day after today"
    );
    assert_eq!(body["error"]["fields"]["reason"], "Please enter a reason");
    let snoozed = staff
        .post(
            "/api/queue/snooze",
            json!({"kind": "follow_up", "id": fay, "until": tomorrow, "reason": "Away today"}),
        )
        .await;
    assert_eq!(snoozed.status(), StatusCode::NO_CONTENT);
    assert!(
        !rows(&staff, "/api/queue")
            .await
            .iter()
            .any(|r| r.1 == "Fay Follow")
    );
    assert!(
        timeline(&staff, fay.as_str())
            .await
            .iter()
            .any(|line| line.starts_with("Follow-up moved to") && line.ends_with(": Away today"))
    );

    // Done: the task and the visit; a proposal cannot be marked done here.
    for (kind, id) in [
        ("task", task["id"].as_str().unwrap()),
        ("visit", visit.id.as_str()),
    ] {
        let done = staff
            .post("/api/queue/done", json!({"kind": kind, "id": id}))
            .await;
        assert_eq!(done.status(), StatusCode::NO_CONTENT, "{kind}");
    }
    let (code, message, _) = expect_error(
        staff
            .post("/api/queue/done", json!({"kind": "proposal", "id": fay}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(code, "rejected", "{message}");
    assert_eq!(
        rows(&staff, "/api/queue").await,
        [("reply".to_owned(), "Rae Reply".to_owned())]
    );
    assert!(
        timeline(&staff, rae.as_str())
            .await
            .contains(&"Task done: Call her daughter".to_owned())
    );

    // Opening Rae's communications reads the reply; it leaves the queue, marked read.
    let read = staff
        .post(&format!("/api/clients/{rae}/replies/read"), json!({}))
        .await;
    assert_eq!(expect_json(read, StatusCode::OK).await["read"], 1);
    assert_eq!(
        rows(&staff, "/api/queue").await,
        Vec::<(String, String)>::new()
    );
    let reply: Value = staff
        .ok(&format!("/api/communications?intake_id={rae}"))
        .await["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["direction"] == "inbound")
        .cloned()
        .unwrap();
    assert!(reply["read_at"].is_string(), "{reply}");

    // Given to Ada from the profile: the profile names her, the timeline says so.
    let profile = expect_json(
        staff
            .put(
                &format!("/api/clients/{rae}/owner"),
                json!({"owner_id": ada}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(profile["owner"]["full_name"], "Ada Admin");
    assert!(
        timeline(&staff, rae.as_str())
            .await
            .contains(&"Coordinator changed from Sam Staff to Ada Admin".to_owned())
    );
    let (_, _, body) = expect_error(
        staff
            .put(
                &format!("/api/clients/{rae}/owner"),
                json!({"owner_id": "nobody"}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        body["error"]["fields"]["owner_id"],
        "Choose an active member of staff."
    );

    // A new intake belongs to whoever submits it, unless it names an owner.
    let made = expect_json(
        admin
            .post(
                "/api/intakes",
                json!({"form": intake_form("Nell New"), "owner_id": sam}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let made_id = made["id"].as_str().unwrap();
    assert_eq!(
        staff.ok(&format!("/api/clients/{made_id}")).await["owner"]["full_name"],
        "Sam Staff"
    );
    server.stop().await;
}
