//! What a phone on a slow network is sent: the web UI's scripts precompressed by the
//! encoding it accepts, cached for good when hashed, and the API's answers compressed
//! when they are big enough to gain from it.

use std::io::Read;

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{TestServer, expect_json, intake_form};

/// The page's entry script (`/assets/index-….js`), as `index.html` names it.
fn entry_script(page: &str) -> String {
    let start = page
        .find("/assets/index-")
        .expect("index.html names no entry script: build the web UI (scripts/build-web) first");
    let end = start + page[start..].find(".js").expect("a script name") + 3;
    page[start..end].to_owned()
}

#[tokio::test]
async fn the_main_script_travels_precompressed_and_cached_for_good() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let fetch = |path: String, accept: Option<&'static str>| {
        let mut request = anonymous.request(reqwest::Method::GET, &path);
        if let Some(accept) = accept {
            request = request.header("accept-encoding", accept);
        }
        request.send()
    };

    let page = fetch("/".into(), None).await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let script = entry_script(&page.text().await.unwrap());

    let raw = fetch(script.clone(), None).await.unwrap();
    assert_eq!(raw.status(), StatusCode::OK);
    assert!(raw.headers().get("content-encoding").is_none());
    assert!(
        raw.headers()["content-type"]
            .to_str()
            .unwrap()
            .contains("javascript")
    );
    let raw = raw.bytes().await.unwrap();

    let br = fetch(script.clone(), Some("gzip, deflate, br"))
        .await
        .unwrap();
    assert_eq!(br.status(), StatusCode::OK);
    assert_eq!(br.headers()["content-encoding"], "br");
    assert_eq!(
        br.headers()["vary"].to_str().unwrap().to_lowercase(),
        "accept-encoding"
    );
    assert_eq!(br.headers()["cache-control"], "max-age=31536000, immutable");
    let br = br.bytes().await.unwrap();
    assert!(
        br.len() * 100 < raw.len() * 40,
        "Brotli {} bytes of {} raw",
        br.len(),
        raw.len()
    );
    let mut unpacked = Vec::new();
    brotli::Decompressor::new(&br[..], 4096)
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, raw, "the Brotli copy is the script");

    let gzip = fetch(script.clone(), Some("gzip")).await.unwrap();
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    let gzip = gzip.bytes().await.unwrap();
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&gzip[..])
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, raw, "the gzip copy is the script");

    // A script of another build: a plain 404, not the app's page read as a script.
    let gone = fetch("/assets/index-0ld8uild.js".into(), Some("br"))
        .await
        .unwrap();
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_list_of_fifty_clients_is_compressed_and_a_small_answer_is_not() {
    let server = TestServer::start().await;
    let staff = server.staff().await;
    let mut intake = String::new();
    for n in 0..50 {
        intake = expect_json(
            staff
                .post(
                    "/api/intakes",
                    json!({"form": intake_form(&format!("Field Client {n}"))}),
                )
                .await,
            StatusCode::OK,
        )
        .await["id"]
            .as_str()
            .expect("the new intake's id")
            .to_owned();
    }
    let encoded = |path: &str| {
        staff
            .request(reqwest::Method::GET, path)
            .header("accept-encoding", "br, gzip")
            .send()
    };
    let plain = staff.get("/api/clients?limit=50").await;
    assert!(plain.headers().get("content-encoding").is_none());
    let plain = plain.bytes().await.unwrap();
    let list = encoded("/api/clients?limit=50").await.unwrap();
    // gzip, though Brotli is accepted: it costs the server less per answer.
    assert_eq!(list.headers()["content-encoding"], "gzip");
    let list = list.bytes().await.unwrap();
    assert!(
        list.len() * 4 < plain.len(),
        "{} bytes compressed of {}",
        list.len(),
        plain.len()
    );

    // Small answers go as they are, though the client accepts compression: the signed-in
    // user (a couple of hundred bytes), and an intake's form (a few kilobytes), which
    // compressed would cost the server a quarter of the answer to save a phone milliseconds.
    let intake = format!("/api/intakes/{intake}");
    for (path, sizes) in [("/api/auth/me", 100..1024), (intake.as_str(), 1024..4096)] {
        let answer = encoded(path).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK, "{path}");
        assert!(answer.headers().get("content-encoding").is_none(), "{path}");
        let body = answer.bytes().await.unwrap();
        assert!(
            sizes.contains(&body.len()),
            "{path} has {} bytes",
            body.len()
        );
        serde_json::from_slice::<serde_json::Value>(&body).expect("plain JSON");
    }
}

/// The addresses of the tags a page names that start with `tag` (`<link rel="modulepreload"`).
fn linked(page: &str, tag: &str) -> Vec<String> {
    page.split(tag)
        .skip(1)
        .filter_map(|rest| {
            let start = rest.find("href=\"")? + 6;
            let end = start + rest[start..].find('"')?;
            Some(rest[start..end].to_owned())
        })
        .collect()
}

/// The scripts a page asks the browser to fetch with its entry.
fn preloaded(page: &str) -> Vec<String> {
    linked(page, "<link rel=\"modulepreload\"")
}

#[tokio::test]
async fn the_page_for_a_screen_names_that_screens_files_so_they_come_with_the_entry() {
    let server = TestServer::start().await;
    let anonymous = server.anonymous();
    let mut named = Vec::new();
    let mut pages = Vec::new();
    for path in [
        "/",
        "/clients/01a20000-0000-7000-8000-000000000000",
        "/approve/some-token",
        "/no-such-screen",
    ] {
        let page = anonymous.get(path).await.text().await.unwrap();
        named.push(preloaded(&page));
        pages.push(page);
    }
    let [dashboard, profile, approve, unknown] = &named[..] else {
        unreachable!()
    };
    let names = |files: &[String], part: &str| files.iter().any(|file| file.contains(part));
    assert!(names(dashboard, "/dashboard-page-"), "{dashboard:?}");
    assert!(names(profile, "/client-profile-page-"), "{profile:?}");
    // The family's link gets the family's page: its own script, without the staff app's
    // entry and its packages (the router among them).
    assert!(pages[2].contains("src=\"/assets/family-"), "{}", pages[2]);
    assert!(!pages[2].contains("/assets/index-"), "{}", pages[2]);
    assert!(!pages[2].contains("/assets/vendor-"), "{}", pages[2]);
    assert!(names(dashboard, "/vendor-"), "{dashboard:?}");
    assert!(pages[3].contains("src=\"/assets/index-"), "{}", pages[3]);
    // The family's page by its own name, as its service worker keeps it: the family's
    // entry, with the script that names the data of the link it is shown for.
    let kept = anonymous.get("/family.html").await.text().await.unwrap();
    assert!(kept.contains("src=\"/assets/family-"), "{kept}");
    assert!(kept.contains("<!--first-data--><script>"), "{kept}");
    let worker = anonymous.get("/family-sw.js").await;
    assert_eq!(worker.status(), StatusCode::OK);
    assert_eq!(worker.headers()["cache-control"], "no-cache");
    // Every file the family's page names and its worker keeps is one the server has.
    let worker = worker.text().await.unwrap();
    let kept_files: Vec<&str> = worker
        .split("url:\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(kept_files.contains(&"family.html"), "{worker}");
    let scripts: Vec<&str> = pages[2]
        .split("src=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(!scripts.is_empty(), "{}", pages[2]);
    for file in kept_files
        .iter()
        .map(|file| format!("/{file}"))
        .chain(scripts.iter().map(|file| (*file).to_owned()))
    {
        assert_eq!(
            anonymous.get(&file).await.status(),
            StatusCode::OK,
            "{file}"
        );
    }
    // A link with a slash at its end is the same link.
    let slashed = anonymous
        .get("/approve/some-token/")
        .await
        .text()
        .await
        .unwrap();
    assert!(slashed.contains("src=\"/assets/family-"), "{slashed}");
    // Each page names only its own screen: the other screens' chunks are not fetched.
    assert!(!names(profile, "/dashboard-page-"), "{profile:?}");
    assert!(!names(unknown, "-page-"), "{unknown:?}");
    // Every file named is one the server has.
    for file in dashboard.iter().chain(profile).chain(approve) {
        assert_eq!(anonymous.get(file).await.status(), StatusCode::OK, "{file}");
    }
    // The list itself is the server's, not a file it serves.
    let list = anonymous
        .get("/first-screens.json")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        !list.contains("\"files\""),
        "the list of screen files is served"
    );
}

/// The data addresses the page for `path` names, as `session` gets it.
async fn data_of(session: &crate::support::Session, path: &str) -> Vec<String> {
    data_named(&session.get(path).await.text().await.unwrap())
}

/// The data addresses a page asks the browser to fetch ahead (`rel="preload" as="fetch"`).
fn data_named(page: &str) -> Vec<String> {
    linked(page, "<link rel=\"preload\" as=\"fetch\"")
}

#[tokio::test]
async fn the_page_for_a_screen_names_its_first_data_to_a_visitor_who_may_read_it() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    let anonymous = server.anonymous();

    assert_eq!(
        data_of(&admin, "/").await,
        ["/api/auth/me", "/api/dashboard"],
        "the dashboard and the session check travel with the page"
    );
    let id = "01a20000-0000-7000-8000-000000000000";
    assert_eq!(
        data_of(&admin, "/clients/01a20000-0000-7000-8000-000000000000").await,
        ["/api/auth/me".to_owned(), format!("/api/clients/{id}")]
    );
    assert_eq!(data_of(&admin, "/settings").await, ["/api/auth/me"]);
    // Without a session a staff screen's data would only be refused: none is named.
    assert!(data_of(&anonymous, "/").await.is_empty());
    // The family's pages need no session: the letter travels with the page.
    assert_eq!(
        data_of(&anonymous, "/approve/AbC_d-9").await,
        ["/api/public/approve/AbC_d-9"]
    );
    // A parameter that is not a plain token or id is never written into the page.
    assert!(data_of(&anonymous, "/sign/a%22%3Cb").await.is_empty());

    // The page's own first-data script is left out where the page names all the first
    // data; it stays where the address's query decides more (the intake the form opens),
    // where the server named none (no session), and on a path that is no screen.
    assert!(!has_first_data_script(&admin, "/").await);
    assert!(!has_first_data_script(&anonymous, "/approve/AbC_d-9").await);
    assert!(has_first_data_script(&admin, "/intake?intake_id=01a2").await);
    assert!(has_first_data_script(&anonymous, "/").await);
    assert!(has_first_data_script(&anonymous, "/no-such-screen").await);
}

/// Whether the page for `path`, as `session` gets it, holds the page's first-data script.
async fn has_first_data_script(session: &crate::support::Session, path: &str) -> bool {
    let page = session.get(path).await.text().await.unwrap();
    page.contains("<!--first-data--><script>")
}
