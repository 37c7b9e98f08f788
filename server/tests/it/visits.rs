//! Assessment visits over HTTP: booking from an intake moves the client to "Assessment
//! Scheduled", moving and cancelling follow, a stale version is a 409, and each move
//! mails the family and the assessor a calendar invitation (read back from the outbox).

use mail_parser::{MessageParser, MimeHeaders};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, expect_json, intake_form, outbox_emails};

/// Tomorrow in the server's zone (the settings name none, so the machine's).
fn tomorrow() -> String {
    jiff::Zoned::now().date().tomorrow().unwrap().to_string()
}

/// The calendar attachments in the outbox: (recipient, content type, calendar text).
fn invitations(server: &TestServer) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for eml in outbox_emails(server) {
        let Some(message) = MessageParser::default().parse(eml.as_bytes()) else {
            continue;
        };
        let to = message
            .to()
            .and_then(|to| to.first())
            .and_then(|address| address.address())
            .unwrap_or_default()
            .to_owned();
        for part in message.attachments() {
            let Some(content_type) = part.content_type() else {
                continue;
            };
            if content_type.subtype() != Some("calendar") {
                continue;
            }
            let method = content_type
                .attribute("method")
                .unwrap_or_default()
                .to_owned();
            let text = String::from_utf8_lossy(part.contents()).into_owned();
            found.push((to.clone(), method, text));
        }
    }
    found.sort();
    found
}

#[tokio::test]
async fn a_visit_booked_from_an_intake_schedules_the_client_and_invites_everyone() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let me = staff.ok("/api/auth/me").await;
    let me_id = me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned();
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ruth Hale")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap().to_owned();

    // A visit in the past is refused with its message and writes nothing.
    let (code, message, _) = expect_error(
        staff
            .post(
                &format!("/api/intakes/{intake_id}/visits"),
                json!({"date": "2020-01-06", "start_time": "10:00", "duration_minutes": 60,
                       "place": "12 Oak St", "assessor_id": me_id}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        (code.as_str(), message.as_str()),
        ("validation", "The visit cannot be in the past")
    );

    let booked = expect_json(
        staff
            .post(
                &format!("/api/intakes/{intake_id}/visits"),
                json!({"date": tomorrow(), "start_time": "10:00", "duration_minutes": 90,
                       "place": "12 Oak St, Springfield", "assessor_id": me_id,
                       "notes": "Ring twice"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let visit = &booked["visit"];
    let visit_id = visit["id"].as_str().unwrap().to_owned();
    assert_eq!(visit["local_start_time"], "10:00");
    assert_eq!(visit["local_end_time"], "11:30");
    assert_eq!(visit["status"], "scheduled");
    assert_eq!(booked["warnings"], json!([]));

    let client = staff.ok(&format!("/api/clients/{intake_id}")).await;
    let pipeline = &client["intake"]["pipeline"];
    assert_eq!(pipeline["label"], "Assessment Scheduled", "{client}");
    assert_eq!(pipeline["description"], "In 1 day");
    assert_eq!(pipeline["next_action"], "View Assessment Details");

    // The day's list and the client's visits show it.
    let day = staff
        .ok(&format!("/api/visits?from={0}&to={0}", tomorrow()))
        .await;
    assert_eq!(day["items"].as_array().unwrap().len(), 1);
    assert_eq!(day["items"][0]["client_name"], "Ruth Hale");
    let mine = staff.ok(&format!("/api/intakes/{intake_id}/visits")).await;
    assert_eq!(mine["items"][0]["id"], visit_id.as_str());

    let sent = invitations(&server);
    let recipients: Vec<&str> = sent.iter().map(|(to, _, _)| to.as_str()).collect();
    assert_eq!(
        recipients,
        ["grace@family.test", "staff@agency.test"],
        "{sent:?}"
    );
    for (_, method, text) in &sent {
        assert_eq!(method, "REQUEST");
        assert!(
            text.contains(&format!("UID:{visit_id}@carepath\r\n")),
            "{text}"
        );
        assert!(text.contains("SEQUENCE:0\r\n"), "{text}");
        assert!(
            text.contains("LOCATION:12 Oak St\\, Springfield\r\n"),
            "{text}"
        );
    }

    // A second booking at an overlapping time is saved with a warning.
    let other = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Omar Fisk")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let clash = expect_json(
        staff
            .post(
                &format!("/api/intakes/{}/visits", other["id"].as_str().unwrap()),
                json!({"date": tomorrow(), "start_time": "11:00", "duration_minutes": 60,
                       "place": "3 Elm St", "assessor_id": me_id}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let warnings = clash["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w
            .as_str()
            .unwrap()
            .contains("already has a visit with Ruth Hale")),
        "{warnings:?}"
    );

    // Moved: version 1 → 2, the invitation's SEQUENCE goes up; the old version is stale.
    let moved = expect_json(
        staff
            .put(
                &format!("/api/visits/{visit_id}"),
                json!({"version": 1, "date": tomorrow(), "start_time": "14:00",
                       "duration_minutes": 60, "place": "12 Oak St, Springfield",
                       "assessor_id": me_id}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(moved["visit"]["local_start_time"], "14:00");
    assert_eq!(moved["visit"]["version"], 2);
    let (code, _, body) = expect_error(
        staff
            .put(
                &format!("/api/visits/{visit_id}"),
                json!({"version": 1, "date": tomorrow(), "start_time": "15:00",
                       "duration_minutes": 60, "place": "x", "assessor_id": me_id}),
            )
            .await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(code, "conflict", "{body}");
    assert!(
        invitations(&server).iter().any(|(_, _, text)| text
            .contains(&format!("UID:{visit_id}@carepath"))
            && text.contains("SEQUENCE:1\r\n")),
        "a REQUEST with the next SEQUENCE"
    );

    // Cancelled with a reason: the calendars get a CANCEL and the client goes back.
    let (_, message, _) = expect_error(
        staff
            .post(
                &format!("/api/visits/{visit_id}/cancel"),
                json!({"version": 2, "reason": ""}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please enter a reason");
    let cancelled: Value = expect_json(
        staff
            .post(
                &format!("/api/visits/{visit_id}/cancel"),
                json!({"version": 2, "reason": "Family away"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(cancelled["visit"]["status"], "cancelled");
    let cancels: Vec<_> = invitations(&server)
        .into_iter()
        .filter(|(_, method, _)| method == "CANCEL")
        .collect();
    assert_eq!(cancels.len(), 2, "the family and the assessor");
    assert!(cancels[0].2.contains("SEQUENCE:2\r\n") && cancels[0].2.contains("STATUS:CANCELLED"));
    let client = staff.ok(&format!("/api/clients/{intake_id}")).await;
    assert_eq!(client["intake"]["pipeline"]["label"], "New Client");

    // Without a session, nothing.
    let response = server.anonymous().get("/api/visits").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    server.stop().await;
}

#[tokio::test]
async fn a_calendar_feed_opens_without_a_session_until_revoked() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let me = staff.ok("/api/auth/me").await;
    let me_id = me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned();
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ruth Hale")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let booked = expect_json(
        staff
            .post(
                &format!("/api/intakes/{}/visits", intake["id"].as_str().unwrap()),
                json!({"date": tomorrow(), "start_time": "10:00", "duration_minutes": 60,
                       "place": "12 Oak St", "assessor_id": me_id}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(staff.ok("/api/calendar-feed").await["active"], false);

    let created = expect_json(
        staff.post("/api/calendar-feed", json!({})).await,
        StatusCode::OK,
    )
    .await;
    let url = created["url"].as_str().unwrap().to_owned();
    let path = url
        .split_once("/api/")
        .map(|(_, rest)| format!("/api/{rest}"))
        .unwrap();
    assert!(path.starts_with("/api/public/calendar/"), "{url}");
    assert_eq!(staff.ok("/api/calendar-feed").await["active"], true);

    let response = server.anonymous().get(&path).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/calendar"),
    );
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let text = response.text().await.unwrap();
    assert!(text.contains("METHOD:PUBLISH\r\n"), "{text}");
    assert!(
        text.contains(&format!(
            "UID:{}@carepath\r\n",
            booked["visit"]["id"].as_str().unwrap()
        )),
        "{text}"
    );

    // A calendar program that sends the tag back gets no body while nothing changed.
    let feed_with_tag = |tag: String| {
        server
            .anonymous()
            .request(reqwest::Method::GET, &path)
            .header("if-none-match", tag)
            .send()
    };
    let unchanged = feed_with_tag(etag.clone()).await.unwrap();
    assert_eq!(unchanged.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(unchanged.headers()["etag"].to_str().unwrap(), etag);

    // A moved visit shows on the very next request, under a new tag.
    let visit_id = booked["visit"]["id"].as_str().unwrap();
    expect_json(
        staff
            .put(
                &format!("/api/visits/{visit_id}"),
                json!({"version": booked["visit"]["version"], "date": tomorrow(), "start_time": "14:30",
                       "duration_minutes": 60, "place": "12 Oak St", "assessor_id": me_id}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let moved = feed_with_tag(etag.clone()).await.unwrap();
    assert_eq!(moved.status(), StatusCode::OK);
    assert_ne!(moved.headers()["etag"].to_str().unwrap(), etag);
    let moved = moved.text().await.unwrap();
    assert!(moved.contains("T143000"), "{moved}");

    let response = staff.delete("/api/calendar-feed").await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (code, _, _) =
        expect_error(server.anonymous().get(&path).await, StatusCode::NOT_FOUND).await;
    assert_eq!(code, "link_unavailable");
    server.stop().await;
}

/// The Print Packet button's PDF: staff get it inline as a PDF; a stranger is asked to
/// sign in and an unknown visit is not found.
#[tokio::test]
async fn a_visit_packet_is_a_pdf_for_staff_only() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let me = staff.ok("/api/auth/me").await;
    let me_id = me["user"]["id"]
        .as_str()
        .or(me["id"].as_str())
        .unwrap()
        .to_owned();
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ruth Hale")}))
            .await,
        StatusCode::OK,
    )
    .await;
    let intake_id = intake["id"].as_str().unwrap();
    let booked = expect_json(
        staff
            .post(
                &format!("/api/intakes/{intake_id}/visits"),
                json!({"date": tomorrow(), "start_time": "10:00", "duration_minutes": 60,
                       "place": "12 Oak St, Springfield", "assessor_id": me_id}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let visit_id = booked["visit"]["id"].as_str().unwrap();
    let path = format!("/api/visits/{visit_id}/packet.pdf");

    let response = staff.get(&path).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    assert_eq!(
        response.headers()["content-disposition"],
        format!("inline; filename=\"packet-{visit_id}.pdf\"").as_str()
    );
    assert!(response.bytes().await.unwrap().starts_with(b"%PDF"));

    expect_error(
        server.anonymous().get(&path).await,
        StatusCode::UNAUTHORIZED,
    )
    .await;
    expect_error(
        staff
            .get("/api/visits/01a20000-0000-7000-8000-000000000000/packet.pdf")
            .await,
        StatusCode::NOT_FOUND,
    )
    .await;
}
