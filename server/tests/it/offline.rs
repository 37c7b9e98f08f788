//! The installable, offline-capable web app as the server serves it: the service worker
//! and the manifest with their types and caching, the page's policy admitting both, the
//! manifest following the agency's logo, and the per-user device-key secret a signed-in
//! session is given (and a stranger is not).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::support::{TestServer, expect_error, expect_json};

fn png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_pixel(width, height, image::Rgb([15, 118, 110]));
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgb8(picture)
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}

#[tokio::test]
async fn the_service_worker_and_manifest_are_served_for_an_installable_app() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();

    let page = anonymous.get("/").await;
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("worker-src 'self'"), "{policy}");
    assert!(policy.contains("manifest-src 'self'"), "{policy}");
    let page = page.text().await.unwrap();
    assert!(
        page.contains(r#"<link rel="manifest" href="/manifest.webmanifest""#),
        "the page links no manifest: build the web UI first"
    );

    // The worker: a script, and always revalidated so a new build is noticed at once.
    let worker = anonymous.get("/sw.js").await;
    assert_eq!(worker.status(), StatusCode::OK);
    assert_eq!(worker.headers()["cache-control"], "no-cache");
    assert!(
        worker.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    let worker = worker.text().await.unwrap();
    // It precaches this build's own entry script.
    let start = page.find("/assets/index-").expect("an entry script");
    let end = start + page[start..].find(".js").unwrap() + 3;
    assert!(
        worker.contains(&page[start + 1..end]),
        "the worker does not precache {}",
        &page[start..end]
    );

    let manifest = anonymous.get("/manifest.webmanifest").await;
    assert_eq!(manifest.status(), StatusCode::OK);
    assert_eq!(
        manifest.headers()["content-type"],
        "application/manifest+json"
    );
    assert_eq!(manifest.headers()["cache-control"], "no-cache");
    let manifest: Value = manifest.json().await.unwrap();
    assert_eq!(manifest["display"], "standalone");
    assert_eq!(manifest["theme_color"], "#0f766e");
    assert_eq!(manifest["icons"][0]["src"], "/icon-192.png");
    for icon in manifest["icons"].as_array().unwrap() {
        let src = icon["src"].as_str().unwrap();
        let file = anonymous.get(src).await;
        assert_eq!(file.status(), StatusCode::OK, "{src}");
        assert_eq!(file.headers()["content-type"], "image/png", "{src}");
    }

    // With a logo, the installed app shows it first, at the address that changes with it.
    let admin = server.admin().await;
    let settings = expect_json(
        admin
            .request(Method::PUT, "/api/settings/logo")
            .header("content-type", "image/png")
            .body(png(256, 256))
            .send()
            .await
            .unwrap(),
        StatusCode::OK,
    )
    .await;
    let manifest: Value = anonymous
        .get("/manifest.webmanifest")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(manifest["icons"][0]["src"], settings["logo"]["url"]);
    assert_eq!(manifest["icons"][0]["sizes"], "256x256");
    assert_eq!(manifest["name"], settings["general"]["company_name"]);
}

#[tokio::test]
async fn a_signed_in_user_gets_their_own_device_key_secret_never_stored() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    expect_error(
        anonymous.get("/api/account/offline").await,
        StatusCode::UNAUTHORIZED,
    )
    .await;

    let admin = server.admin().await;
    let staff = server.staff().await;
    let answer = admin.get("/api/account/offline").await;
    assert_eq!(answer.headers()["cache-control"], "no-store");
    let mine = expect_json(answer, StatusCode::OK).await;
    let secret = mine["device_key_secret"].as_str().unwrap();
    assert_eq!(secret.len(), 64);
    assert!(secret.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(mine["retention_days"], 7);
    assert_eq!(mine["visit_days"], 7);
    // The same on every request for the same user; another user's differs.
    assert_eq!(admin.ok("/api/account/offline").await, mine);
    assert_ne!(
        staff.ok("/api/account/offline").await["device_key_secret"],
        mine["device_key_secret"]
    );

    // The retention window is the administrators' to set, within core's bounds.
    let settings = admin.ok("/api/settings").await;
    assert_eq!(
        settings["bounds"]["workflow"]["offline_retention_days"],
        json!({"min": 1, "max": 30})
    );
    let version = settings["versions"]["workflow"].as_i64().unwrap_or(0);
    let mut workflow = settings["workflow"].clone();
    workflow["offline_retention_days"] = json!(31);
    let (_, _, body) = expect_error(
        admin
            .put(
                "/api/settings",
                json!({"version": version, "tab": "workflow", "values": workflow}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        body["error"]["fields"]["offline_retention_days"],
        "Must be between 1 and 30."
    );
    workflow["offline_retention_days"] = json!(3);
    expect_error(
        staff
            .put(
                "/api/settings",
                json!({"version": version, "tab": "workflow", "values": workflow}),
            )
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    expect_json(
        admin
            .put(
                "/api/settings",
                json!({"version": version, "tab": "workflow", "values": workflow}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(staff.ok("/api/account/offline").await["retention_days"], 3);
}
