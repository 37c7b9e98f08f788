//! Writes sent at once over HTTP: the server runs those queued together in one
//! transaction with one commit, and each is answered only once it is stored. Every
//! acknowledged write is there, a refused one among them takes nothing else with it,
//! and updates of one record queued together still see each other's versions.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_error, expect_json, intake_form};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_sent_at_once_are_all_stored_and_a_refused_one_takes_nothing_with_it() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let sends = (0..40).map(|n| {
        let staff = &staff;
        async move {
            // The twentieth has no client name: refused, among the others.
            let name = if n == 20 {
                String::new()
            } else {
                format!("Burst Client {n}")
            };
            staff
                .post("/api/intakes", json!({"form": intake_form(&name)}))
                .await
        }
    });
    let answers = futures_util::future::join_all(sends).await;
    let mut stored = Vec::new();
    for (n, answer) in answers.into_iter().enumerate() {
        if n == 20 {
            expect_error(answer, StatusCode::UNPROCESSABLE_ENTITY).await;
        } else {
            let intake = expect_json(answer, StatusCode::OK).await;
            stored.push(intake["id"].as_str().unwrap().to_owned());
        }
    }
    // Each acknowledged intake reads back as stored.
    for id in &stored {
        staff.ok(&format!("/api/intakes/{id}")).await;
    }
    let clients = staff.ok("/api/clients?limit=100").await;
    assert_eq!(clients["counts"]["total"], 39, "{}", clients["counts"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_updates_of_one_intake_sent_at_once_are_one_saved_and_one_conflict() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let intake = expect_json(
        staff
            .post(
                "/api/intakes",
                json!({"form": intake_form("Shared Client")}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let path = format!("/api/intakes/{}", intake["id"].as_str().unwrap());
    let version = intake["version"].as_i64().unwrap();
    let update = |notes: &str| {
        let mut form = intake_form("Shared Client");
        form["followUpNotes"] = json!(notes);
        staff.put(&path, json!({"version": version, "form": form}))
    };
    let (first, second) = tokio::join!(update("first"), update("second"));
    let mut statuses = [first.status(), second.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let stored = staff.ok(&path).await;
    assert_eq!(stored["version"], version + 1);
}
