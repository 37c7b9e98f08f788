//! Templates, settings and users.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_error, expect_json};

#[tokio::test]
async fn templates_settings_and_users() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let (_, message, _) = expect_error(
        staff
            .post("/api/message-templates", json!({"name": ""}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in required fields");
    let template = staff.post("/api/message-templates", json!({"name": "Welcome", "message_type": "sms", "ai_prompt_template": "Greet {client_name}"})).await;
    let template = expect_json(template, StatusCode::OK).await;
    let id = template["id"].as_str().unwrap();
    let updated = staff.put(&format!("/api/message-templates/{id}"), json!({"version": template["version"], "template": {"name": "Hello", "ai_prompt_template": "Hi"}})).await;
    assert_eq!(expect_json(updated, StatusCode::OK).await["name"], "Hello");
    assert_eq!(
        staff.ok("/api/message-templates").await["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        staff
            .delete(&format!("/api/message-templates/{id}"))
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        server
            .admin()
            .await
            .delete(&format!("/api/message-templates/{id}"))
            .await
            .status(),
        StatusCode::NO_CONTENT
    );

    let (_, message, _) = expect_error(
        staff
            .post("/api/pricing-templates", json!({"name": "X"}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Please fill in template name and base rate");
    let pricing = expect_json(
        staff
            .post(
                "/api/pricing-templates",
                json!({"name": "Basic", "base_rate": 30}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let pricing_id = pricing["id"].as_str().unwrap();
    let stale = staff
        .put(
            &format!("/api/pricing-templates/{pricing_id}"),
            json!({"version": 99, "template": {"name": "Basic", "base_rate": 31}}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;

    let contract_template = staff.ok("/api/contract-template").await;
    assert!(!contract_template["sections"].as_array().unwrap().is_empty());
    let input =
        json!({"name": contract_template["name"], "sections": contract_template["sections"]});
    let saved = staff
        .put(
            "/api/contract-template",
            json!({"version": contract_template["version"], "template": input}),
        )
        .await;
    assert_eq!(saved.status(), StatusCode::OK);
    let version = expect_json(
        staff.post("/api/contract-template/versions", input).await,
        StatusCode::OK,
    )
    .await;
    assert_ne!(
        version["template_version"],
        contract_template["template_version"]
    );
    assert!(
        staff.ok("/api/contract-template/versions").await["items"]
            .as_array()
            .unwrap()
            .len()
            >= 2
    );

    let settings = staff.ok("/api/settings").await;
    // The answer names what the screen shows read-only to staff, and the numbers' bounds.
    assert_eq!(
        settings["admin_only"]["email"],
        json!(["default_from", "reply_to", "default_cc", "bcc"])
    );
    assert_eq!(
        settings["admin_only"]["sms"],
        json!(["default_sender_number"])
    );
    assert_eq!(
        settings["bounds"]["workflow"]["signing_link_days"],
        json!({"min": 1, "max": 90})
    );
    let version = settings["versions"]["email"].as_i64().unwrap_or(0);
    let values = json!({"default_from": "office@agency.test", "reply_to": "reply@agency.test", "signature": "", "default_cc": "", "bcc": ["records@agency.test"]});
    // Where emails go is the administrators' to change.
    let refused = staff
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    expect_error(refused, StatusCode::FORBIDDEN).await;
    let admin = server.admin().await;
    let saved = admin
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    let saved = expect_json(saved, StatusCode::OK).await;
    assert_eq!(saved["email"]["reply_to"], "reply@agency.test");
    // A staff member may still change what is theirs to change: the signature.
    let mut signed = values.clone();
    signed["signature"] = json!("Best, Sam");
    let saved = staff
        .put(
            "/api/settings",
            json!({"version": version + 1, "tab": "email", "values": signed}),
        )
        .await;
    assert_eq!(
        expect_json(saved, StatusCode::OK).await["email"]["signature"],
        "Best, Sam"
    );
    let stale = admin
        .put(
            "/api/settings",
            json!({"version": version, "tab": "email", "values": values}),
        )
        .await;
    expect_error(stale, StatusCode::CONFLICT).await;
    let unknown = staff
        .put(
            "/api/settings",
            json!({"version": 0, "tab": "email", "values": {"smtp_password": "x"}}),
        )
        .await;
    expect_error(unknown, StatusCode::BAD_REQUEST).await;
    let (_, message, _) = expect_error(
        staff.put("/api/settings", json!({"version": settings["versions"]["workflow"].as_i64().unwrap_or(0), "tab": "workflow", "values": {"idle_timeout_minutes": 0}})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(message, "Automatic log-off must be at least 1 minute");

    assert_eq!(
        staff.ok("/api/users").await["items"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let admin = server.admin().await;
    let users = admin.ok("/api/admin/users").await;
    assert_eq!(users["items"].as_array().unwrap().len(), 2);
    let created = admin
        .post(
            "/api/admin/users",
            json!({"email": "third@agency.test", "full_name": "Third", "password": "third-secret"}),
        )
        .await;
    let created = expect_json(created, StatusCode::OK).await;
    let created_id = created["id"].as_str().unwrap();
    let promoted = admin
        .put(
            &format!("/api/admin/users/{created_id}/admin"),
            json!({"is_admin": true}),
        )
        .await;
    assert_eq!(
        expect_json(promoted, StatusCode::OK).await["is_admin"],
        true
    );
    let third = server.sign_in(("third@agency.test", "third-secret")).await;
    let disabled = admin
        .post(&format!("/api/admin/users/{created_id}/disable"), json!({}))
        .await;
    assert_eq!(
        expect_json(disabled, StatusCode::OK).await["disabled"],
        true
    );
    assert_eq!(
        third.get("/api/auth/me").await.status(),
        StatusCode::UNAUTHORIZED
    );
}
