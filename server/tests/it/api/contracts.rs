//! Contracts: previewed, edited, sent and signed, and a send that acts on the version on
//! screen.

use reqwest::StatusCode;
use serde_json::json;

use super::{
    approved_care_plan, assessed_client, care_plan_input, drafted_contract, saved_care_plan,
};
use crate::support::{TestServer, expect_error, expect_json};

#[tokio::test]
async fn a_contract_is_previewed_edited_sent_and_signed_only_once_sent() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let plan_id = approved_care_plan(&staff, &assessment_id).await;
    let (contract, content) = drafted_contract(&staff, &plan_id).await;
    assert!(content.contains("Ada Lovelace"));
    let contract_id = contract["id"].as_str().unwrap().to_owned();
    let contract = staff
        .put(
            &format!("/api/contracts/{contract_id}"),
            json!({"version": contract["version"], "content": format!("{content}\nExtra clause.")}),
        )
        .await;
    let contract = expect_json(contract, StatusCode::OK).await;
    assert_eq!(
        contract["editable"], true,
        "a draft is edited on its screen"
    );
    let early_sign = staff
        .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
        .await;
    expect_error(early_sign, StatusCode::UNPROCESSABLE_ENTITY).await;
    let sent = staff
        .post(
            &format!("/api/contracts/{contract_id}/send"),
            json!({"body": "Please sign.", "version": staff.version(&format!("/api/contracts/{contract_id}")).await}),
        )
        .await;
    let sent = expect_json(sent, StatusCode::OK).await;
    assert_eq!(
        sent["communication"]["subject"],
        "Home Care Service Agreement - Ready for Signature"
    );
    assert_eq!(sent["contract"]["status"], "sent");
    assert_eq!(
        sent["contract"]["editable"], false,
        "a sent contract is view-only"
    );
    let stale = staff
        .put(
            &format!("/api/contracts/{contract_id}"),
            json!({"version": contract["version"], "content": "x"}),
        )
        .await;
    assert!(matches!(
        stale.status(),
        StatusCode::CONFLICT | StatusCode::UNPROCESSABLE_ENTITY
    ));
    let signed = expect_json(
        staff
            .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(signed["status"], "signed");
    assert_eq!(signed["editable"], false);
    let contracts = staff.ok("/api/contracts?status=signed").await;
    assert_eq!(contracts["stats"]["signed_this_month"], 1);
}

#[tokio::test]
async fn a_send_acts_on_the_version_on_screen_and_a_stale_one_is_refused() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, assessment_id) = assessed_client(&staff).await;
    let plan = saved_care_plan(&staff, &assessment_id).await;
    let plan_id = plan["id"].as_str().unwrap();
    let seen = plan["version"].clone();

    // Another tab raises the rate after this screen loaded the plan.
    let mut raised = care_plan_input("Ada Lovelace");
    raised["hourly_rate"] = json!(32);
    let raised = expect_json(
        staff
            .put(
                &format!("/api/care-plans/{plan_id}"),
                json!({"version": seen, "plan": raised}),
            )
            .await,
        StatusCode::OK,
    )
    .await;

    let stale = staff
        .post(
            &format!("/api/care-plans/{plan_id}/send"),
            json!({"to": "grace@family.test", "body": "Our proposal.", "version": seen}),
        )
        .await;
    let (code, _, body) = expect_error(stale, StatusCode::CONFLICT).await;
    assert_eq!(code, "conflict");
    assert_eq!(body["current"]["hourly_rate"], 32.0);
    assert_eq!(body["current"]["status"], "draft");
    assert!(
        crate::support::outbox_emails(&server).is_empty(),
        "a refused send emails nobody"
    );

    expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "grace@family.test", "body": "Our proposal.", "version": raised["version"]}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let sent = staff.ok(&format!("/api/care-plans/{plan_id}")).await;
    assert_eq!(
        (sent["status"].as_str(), sent["hourly_rate"].as_f64()),
        (Some("sent"), Some(32.0))
    );

    // A contract generated from a preview of an older version of the plan is refused too.
    let sent_version = staff.version(&format!("/api/care-plans/{plan_id}")).await;
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan_id}"))
        .await;
    let stale = staff
        .post(
            "/api/contracts",
            json!({"care_plan_id": plan_id, "content": preview["content"], "care_plan_version": sent_version - 1}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;

    let (contract, _) = drafted_contract(&staff, plan_id).await;
    let contract_id = contract["id"].as_str().unwrap();
    let edited = expect_json(
        staff
            .put(
                &format!("/api/contracts/{contract_id}"),
                json!({"version": contract["version"], "content": "Edited agreement for Ada Lovelace."}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let stale = staff
        .post(
            &format!("/api/contracts/{contract_id}/send"),
            json!({"body": "Please sign.", "version": contract["version"]}),
        )
        .await;
    let (_, _, body) = expect_error(stale, StatusCode::CONFLICT).await;
    assert_eq!(body["current"]["version"], edited["version"]);
    assert_eq!(body["current"]["status"], "draft");
}
