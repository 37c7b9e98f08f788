//! The JSON API over core, screen by screen, one module per resource: success paths,
//! validation with the spec's messages, version conflicts and the pipeline from intake to
//! signed contract. The journey helpers here build the records the modules start from.

mod assessments;
mod care_plans;
mod compression;
mod contacts;
mod contracts;
mod documents;
mod exports;
mod intakes;
mod notes;
mod profile;
mod settings;
mod trash;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Session, expect_json, intake_form, saved_assessment};

fn care_plan_input(client: &str) -> Value {
    json!({
        "client_name": client,
        "family_contact_name": "Grace Hopper",
        "family_contact_email": "grace@family.test",
        "services": ["companionship", "meals"],
        "schedule": {"monday": {"time": "9am-1pm", "hours": 4}, "saturday": {"time": "", "hours": 2}},
        "hourly_rate": 30,
    })
}

/// What the pipeline scenarios build on: the ids of one client's records.
struct Journey {
    intake_id: String,
    assessment_id: String,
    plan_id: String,
    contract_id: String,
}

/// A submitted intake for "Ada Lovelace"; its id.
async fn new_intake(staff: &Session) -> String {
    let intake = expect_json(
        staff
            .post("/api/intakes", json!({"form": intake_form("Ada Lovelace")}))
            .await,
        StatusCode::OK,
    )
    .await;
    intake["id"].as_str().unwrap().to_owned()
}

/// The assessment form pre-filled from the intake, with what it lacks filled in.
async fn complete_assessment_form(staff: &Session, intake_id: &str) -> Value {
    let mut form = staff
        .ok(&format!("/api/assessments/prefill?intake_id={intake_id}"))
        .await;
    form["clientName"] = json!("Ada Lovelace");
    form["phone"] = json!("(217) 555-0100");
    form["coordinatorName"] = json!("Sam Staff");
    form["recommendedServices"] = json!(["Companionship"]);
    form["recommendedHours"] = json!(6);
    form["preferredDays"] = json!(["Monday", "Wednesday"]);
    form
}

/// A completed assessment for a new intake: (intake id, assessment id).
async fn assessed_client(staff: &Session) -> (String, String) {
    let intake_id = new_intake(staff).await;
    let form = complete_assessment_form(staff, &intake_id).await;
    let assessment_id = saved_assessment(staff, &intake_id, form).await;
    (intake_id, assessment_id)
}

/// A care plan saved from the assessment, as the API returned it.
async fn saved_care_plan(staff: &Session, assessment_id: &str) -> Value {
    expect_json(
        staff
            .post(
                "/api/care-plans",
                json!({"assessment_id": assessment_id, "plan": care_plan_input("Ada Lovelace")}),
            )
            .await,
        StatusCode::OK,
    )
    .await
}

/// A care plan emailed to the family and approved; its id.
async fn approved_care_plan(staff: &Session, assessment_id: &str) -> String {
    let plan = saved_care_plan(staff, assessment_id).await;
    let plan_id = plan["id"].as_str().unwrap().to_owned();
    expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan_id}/send"),
                json!({"to": "grace@family.test", "body": "Our proposal for Ada Lovelace.", "version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    expect_json(
        staff
            .post(&format!("/api/care-plans/{plan_id}/approve"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    plan_id
}

/// A contract drafted from the approved plan with the previewed text: (record, text).
async fn drafted_contract(staff: &Session, plan_id: &str) -> (Value, String) {
    let preview = staff
        .ok(&format!("/api/contracts/preview?care_plan_id={plan_id}"))
        .await;
    let content = preview["content"].as_str().unwrap().to_owned();
    let contract = expect_json(
        staff
            .post(
                "/api/contracts",
                json!({"care_plan_id": plan_id, "content": content, "care_plan_version": staff.version(&format!("/api/care-plans/{plan_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    (contract, content)
}

/// One client taken from intake to a signed contract, each step sent by email.
async fn signed_journey(staff: &Session) -> Journey {
    let (intake_id, assessment_id) = assessed_client(staff).await;
    let plan_id = approved_care_plan(staff, &assessment_id).await;
    let (contract, _) = drafted_contract(staff, &plan_id).await;
    let contract_id = contract["id"].as_str().unwrap().to_owned();
    expect_json(
        staff
            .post(
                &format!("/api/contracts/{contract_id}/send"),
                json!({"body": "Please sign.", "version": staff.version(&format!("/api/contracts/{contract_id}")).await}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    expect_json(
        staff
            .post(&format!("/api/contracts/{contract_id}/sign"), json!({}))
            .await,
        StatusCode::OK,
    )
    .await;
    Journey {
        intake_id,
        assessment_id,
        plan_id,
        contract_id,
    }
}
