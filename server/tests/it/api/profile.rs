//! A client's profile, timeline and outbox after the whole journey.

use super::signed_journey;
use crate::support::TestServer;

#[tokio::test]
async fn the_profile_timeline_and_outbox_show_a_signed_clients_whole_journey() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let journey = signed_journey(&staff).await;
    let intake_id = &journey.intake_id;
    let profile = staff.ok(&format!("/api/clients/{intake_id}")).await;
    assert_eq!(profile["contract"]["status"], "signed");
    let clients = staff.ok("/api/clients?stage=contract").await;
    assert_eq!(clients["counts"]["contract"], 1);
    // The list row: every dot filled, the stage, the signed status and the contract's form.
    let row = &clients["items"][0];
    assert_eq!(row["id"], intake_id.as_str());
    assert_eq!(
        row["journey_done"],
        serde_json::json!(["intake", "assessment", "care_plan", "contract"])
    );
    assert_eq!(row["stage"], "contract");
    assert_eq!(row["pipeline"]["label"], "Active Patient");
    assert_eq!(
        row["view_route"],
        format!("/contracts/new?contract_id={}", journey.contract_id)
    );
    // What the list does not show is not sent.
    for absent in [
        "caller_email",
        "services_required",
        "created_at",
        "overdue_at",
    ] {
        assert!(row.get(absent).is_none(), "{absent} is sent");
    }
    assert!(row["pipeline"].get("next_route").is_none());
    let timeline = staff
        .ok(&format!("/api/communications?intake_id={intake_id}"))
        .await;
    assert!(timeline["items"].as_array().unwrap().len() >= 2);
    let hub = staff
        .ok("/api/communications/hub?type=email&status=sent")
        .await;
    assert!(hub["items"].as_array().unwrap().len() >= 2);
    // The proposal and the contract, one email each.
    let outbox = staff.ok("/api/outbox").await;
    assert_eq!(outbox["items"].as_array().unwrap().len(), 2);
}
