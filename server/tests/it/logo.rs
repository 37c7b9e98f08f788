//! The agency's logo over HTTP: an administrator uploads, replaces and removes it, staff
//! cannot; a file that is not a usable PNG or JPEG gets the logo's own message; anyone
//! (the family's pages, a mail program) can fetch it, cacheable for good at the address
//! Settings give.

use reqwest::{Method, StatusCode};

use crate::support::{TestServer, expect_error, expect_json};

fn png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_pixel(width, height, image::Rgb([20, 90, 170]));
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
async fn administrators_upload_the_logo_and_anyone_can_fetch_it() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    let staff = server.staff().await;
    let upload = |session: &crate::support::Session, body: Vec<u8>| {
        session
            .request(Method::PUT, "/api/settings/logo")
            .header("content-type", "image/png")
            .body(body)
            .send()
    };

    // No logo yet.
    assert!(admin.ok("/api/settings").await["logo"].is_null());
    let family = server.anonymous();
    let (code, _, _) =
        expect_error(family.get("/api/public/logo").await, StatusCode::NOT_FOUND).await;
    assert_eq!(code, "not_found");

    // Staff may not change it.
    let (_, message, _) = expect_error(
        upload(&staff, png(120, 40)).await.unwrap(),
        StatusCode::FORBIDDEN,
    )
    .await;
    assert!(message.contains("administrator"), "{message}");

    // Files that are not a usable logo, each with its message, and nothing stored.
    for (body, expected) in [
        (
            b"GIF89a not a logo".to_vec(),
            "The logo must be a PNG or JPEG image.",
        ),
        (
            png(8, 8),
            "The logo must be between 16 and 2000 pixels wide and between 16 and 2000 pixels high.",
        ),
        (
            vec![0x89; 600 * 1024],
            "The logo must be 512 KB or smaller.",
        ),
        (
            vec![0x89; 2 * 1024 * 1024],
            "The logo must be 512 KB or smaller.",
        ),
    ] {
        let (_, message, body) = expect_error(
            upload(&admin, body).await.unwrap(),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert_eq!(message, expected);
        assert_eq!(body["error"]["fields"]["logo"], expected);
    }
    assert!(admin.ok("/api/settings").await["logo"].is_null());

    let file = png(120, 40);
    let settings = expect_json(upload(&admin, file.clone()).await.unwrap(), StatusCode::OK).await;
    let logo = &settings["logo"];
    assert_eq!(logo["content_type"], "image/png");
    assert_eq!(logo["width"], 120);
    assert_eq!(logo["height"], 40);
    let url = logo["url"].as_str().unwrap().to_owned();
    assert!(url.starts_with("/api/public/logo?v="), "{url}");

    // Without a session, at the address Settings give: the file, kept for good.
    let fetched = family.get(&url).await;
    assert_eq!(fetched.status(), StatusCode::OK);
    assert_eq!(fetched.headers()["content-type"], "image/png");
    assert!(
        fetched.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable")
    );
    assert_eq!(fetched.bytes().await.unwrap().to_vec(), file);
    // An older address is only kept briefly.
    let stale = family.get("/api/public/logo?v=0000000000000000").await;
    assert_eq!(stale.headers()["cache-control"], "public, max-age=300");

    // Staff may not remove it; an administrator may.
    assert_eq!(
        staff.delete("/api/settings/logo").await.status(),
        StatusCode::FORBIDDEN
    );
    let settings = expect_json(admin.delete("/api/settings/logo").await, StatusCode::OK).await;
    assert!(settings["logo"].is_null());
    assert_eq!(
        family.get("/api/public/logo").await.status(),
        StatusCode::NOT_FOUND
    );
}
