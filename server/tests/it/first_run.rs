//! An agency's first day: the one-time setup link (once, refused after use, nothing else
//! answering before it), the mail account tested against a real SMTP server on loopback
//! that demands STARTTLS and AUTH (aiosmtpd, which scripts/setup installs), the SMS
//! account's test text, and the setup checklist.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use carepath_core::model::{Actor, Channel};
use carepath_core::store::{NewUser, Store};
use carepath_server::SetupLinkSink;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Session, TestServer, eventually, expect_error, expect_json, session_cookie};

/// Starts a server on an empty database; answers it and the setup link it printed.
async fn first_day() -> (TestServer, String) {
    let printed: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = printed.clone();
    let server = TestServer::start_empty(move |config| {
        config.setup_link = SetupLinkSink(Arc::new(move |link: &str| {
            sink.lock().unwrap().push(link.to_owned());
        }));
    })
    .await;
    let link = eventually(10, || printed.lock().unwrap().first().cloned())
        .await
        .expect("the server prints a setup link");
    (server, link)
}

fn token_of(link: &str) -> String {
    link.split_once("#token=")
        .expect("a token in the fragment")
        .1
        .to_owned()
}

fn setup_form(token: &str) -> Value {
    json!({
        "token": token,
        "company_name": "Sunrise Home Care",
        "postal_address": "12 Elm Street, Springfield",
        "contact_phone": "(555) 010-2000",
        "contact_email": "office@sunrise.test",
        "time_zone": "America/Chicago",
        "business_hours": "8:00 AM - 6:00 PM",
        "admin_name": "Olivia Owner",
        "admin_email": "olivia@sunrise.test",
        "admin_password": "first-day-secret",
    })
}

#[tokio::test]
async fn the_setup_link_works_once_and_nothing_else_answers_before_it() {
    let (server, link) = first_day().await;
    assert!(
        link.starts_with(&format!("{}/setup#token=", server.url)),
        "{link}"
    );
    let token = token_of(&link);
    assert_eq!(token.len(), 64, "256 random bits, hex");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()));

    let stranger = server.anonymous();
    let health = stranger.get("/api/health").await;
    assert_eq!(health.status(), StatusCode::OK);
    let state = stranger.ok("/api/setup").await;
    assert_eq!(state["needed"], true);
    assert!(!state["machine_time_zone"].as_str().unwrap().is_empty());
    // The web app's page opens, so the setup page can.
    let page = stranger.get("/setup").await;
    assert_eq!(page.status(), StatusCode::OK);
    for (method, path) in [
        ("GET", "/api/intakes"),
        ("GET", "/api/settings"),
        ("POST", "/api/auth/sign-in"),
        ("GET", "/api/setup/checklist"),
    ] {
        let response = match method {
            "GET" => stranger.get(path).await,
            _ => {
                stranger
                    .post(path, json!({"email": "x@y.test", "password": "nope"}))
                    .await
            }
        };
        let (code, message, _) = expect_error(response, StatusCode::CONFLICT).await;
        assert_eq!(code, "not_set_up", "{method} {path}");
        assert!(
            message.starts_with("Carepath is not set up yet."),
            "{message}"
        );
    }

    // A guessed token, and a form with mistakes, change nothing.
    let mut wrong = setup_form(&"0".repeat(64));
    let (_, message, _) = expect_error(
        stranger.post("/api/setup", wrong.clone()).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert!(
        message.starts_with("This setup link cannot be used"),
        "{message}"
    );
    wrong["token"] = json!(token);
    wrong["admin_password"] = json!("abc");
    wrong["company_name"] = json!("");
    let (_, _, body) = expect_error(
        stranger.post("/api/setup", wrong).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let fields = &body["error"]["fields"];
    assert!(
        fields["admin_password"].is_string() && fields["company_name"].is_string(),
        "{body}"
    );

    let done = stranger.post("/api/setup", setup_form(&token)).await;
    assert_eq!(done.status(), StatusCode::OK);
    let cookie = session_cookie(&done).expect("the administrator is signed in");
    let user: Value = done.json().await.unwrap();
    assert_eq!(user["email"], "olivia@sunrise.test");
    assert_eq!(user["is_admin"], true);
    let admin = Session {
        cookie: Some(cookie),
        ..server.anonymous()
    };
    let settings = admin.ok("/api/settings").await;
    assert_eq!(settings["general"]["company_name"], "Sunrise Home Care");
    assert_eq!(settings["general"]["time_zone"], "America/Chicago");
    assert_eq!(settings["general"]["contact_phone"], "(555) 010-2000");

    // Replayed: refused, and the setup page says it is no longer needed.
    let (_, message, _) = expect_error(
        stranger.post("/api/setup", setup_form(&token)).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert!(message.starts_with("This setup link cannot be used"));
    assert_eq!(stranger.ok("/api/setup").await["needed"], false);
    // Everything else answers as usual now.
    assert_eq!(
        stranger.get("/api/intakes").await.status(),
        StatusCode::UNAUTHORIZED
    );
    let signed_in = server
        .sign_in(("olivia@sunrise.test", "first-day-secret"))
        .await;
    signed_in.ok("/api/auth/me").await;

    // The database keeps only the token's hash.
    server
        .stop_and_check_absent(&[token.as_str(), "first-day-secret"])
        .await;
}

impl TestServer {
    /// Checks that no file beside the database (the database, its write-ahead log, the
    /// key file) holds any of `secrets`, then stops the server.
    async fn stop_and_check_absent(self, secrets: &[&str]) {
        let dir = self.dir.path().to_owned();
        let keep = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            // A journal may come and go meanwhile.
            if entry.path().is_file() {
                let _ = std::fs::copy(entry.path(), keep.path().join(entry.file_name()));
            }
        }
        self.stop().await;
        let mut checked = 0;
        for entry in std::fs::read_dir(keep.path()).unwrap().flatten() {
            checked += 1;
            let Ok(bytes) = std::fs::read(entry.path()) else {
                continue;
            };
            for secret in secrets {
                assert!(
                    !bytes
                        .windows(secret.len())
                        .any(|window| window == secret.as_bytes()),
                    "{} holds a secret",
                    entry.file_name().display()
                );
            }
        }
        assert!(checked >= 2, "the database and its log were read");
    }
}

#[tokio::test]
async fn a_user_added_from_the_command_line_ends_the_setup_link() {
    let (server, link) = first_day().await;
    let mut store = Store::open(&server.db).unwrap();
    store
        .create_user(
            &Actor::system(Channel::Cli),
            NewUser {
                email: "cli@sunrise.test".into(),
                full_name: "Cal Cli".into(),
                password: Some("cli-secret".into()),
                is_admin: true,
            },
        )
        .unwrap();
    drop(store);
    let stranger = server.anonymous();
    expect_error(
        stranger
            .post("/api/setup", setup_form(&token_of(&link)))
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    // The API opens without a restart.
    server.sign_in(("cli@sunrise.test", "cli-secret")).await;
}

struct SmtpServer {
    child: Child,
    maildir: tempfile::TempDir,
    cert: std::path::PathBuf,
    port: u16,
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// aiosmtpd demanding STARTTLS and AUTH as `agency` / `right-password`, with a
/// self-signed certificate for 127.0.0.1.
async fn start_smtp() -> SmtpServer {
    let maildir = tempfile::tempdir().unwrap();
    let cert = maildir.path().join("cert.pem");
    let key = maildir.path().join("key.pem");
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
        ])
        .args([
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-addext",
            "basicConstraints=critical,CA:FALSE",
            "-addext",
            "extendedKeyUsage=serverAuth",
        ])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl makes a certificate");
    assert!(made.success());
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/smtp_auth_server.py");
    let child = Command::new("python3")
        .arg(script)
        .arg(port.to_string())
        .arg(&cert)
        .arg(&key)
        .arg(maildir.path().join("mail"))
        .args(["agency", "right-password"])
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 runs aiosmtpd (scripts/setup installs it)");
    let ready = eventually(10, || {
        std::net::TcpStream::connect(("127.0.0.1", port)).ok()
    })
    .await;
    assert!(ready.is_some(), "aiosmtpd did not start");
    SmtpServer {
        child,
        maildir,
        cert,
        port,
    }
}

fn delivered(maildir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(maildir.join("mail").join("new")) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .collect()
}

async fn save_account(admin: &Session, account: Value) -> Value {
    let version = admin.ok("/api/settings/email-account").await["version"].clone();
    let mut account = account;
    account["version"] = version;
    expect_json(
        admin.put("/api/settings/email-account", account).await,
        StatusCode::OK,
    )
    .await
}

async fn test_email(admin: &Session) -> Value {
    expect_json(
        admin
            .post("/api/settings/email-account/test", json!({}))
            .await,
        StatusCode::OK,
    )
    .await
}

#[tokio::test]
async fn the_test_email_reports_the_mail_servers_answer_in_words() {
    let smtp = start_smtp().await;
    let cert = smtp.cert.clone();
    let server = TestServer::start_with(|config| config.smtp_ca_file = Some(cert)).await;
    let admin = server.admin().await;
    let staff = server.staff().await;
    assert_eq!(
        staff.get("/api/settings/email-account").await.status(),
        StatusCode::FORBIDDEN
    );
    let presets = admin.ok("/api/settings/email-account").await["presets"].clone();
    assert_eq!(presets[0]["host"], "smtp.gmail.com");
    assert_eq!(presets[1]["host"], "smtp.office365.com");

    // No mail server saved yet.
    let (_, message, _) = expect_error(
        admin
            .post("/api/settings/email-account/test", json!({}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert!(
        message.starts_with("Save the mail server first"),
        "{message}"
    );

    // A plain connection: the server offers no sign-in before STARTTLS.
    let saved = save_account(
        &admin,
        json!({"host": "127.0.0.1", "port": smtp.port, "tls": "none", "username": "agency", "password": "wrong-password"}),
    )
    .await;
    assert_eq!(saved["password_set"], true);
    assert!(!saved.to_string().contains("wrong-password"));
    let outcome = test_email(&admin).await;
    assert_eq!(outcome["ok"], false);
    assert!(
        outcome["message"].as_str().unwrap().contains("STARTTLS"),
        "{outcome}"
    );

    // STARTTLS, the wrong password: the reason in words.
    save_account(
        &admin,
        json!({"host": "127.0.0.1", "port": smtp.port, "tls": "starttls", "username": "agency"}),
    )
    .await;
    let outcome = test_email(&admin).await;
    assert_eq!(outcome["ok"], false);
    assert!(
        outcome["message"]
            .as_str()
            .unwrap()
            .starts_with("Authentication failed"),
        "{outcome}"
    );

    // The right password: accepted, and the message arrives.
    let saved = save_account(
        &admin,
        json!({"host": "127.0.0.1", "port": smtp.port, "tls": "starttls", "username": "agency", "password": "right-password"}),
    )
    .await;
    assert_eq!(saved["test_ok"], false, "a changed account is untested");
    let outcome = test_email(&admin).await;
    assert_eq!(outcome["ok"], true, "{outcome}");
    assert_eq!(
        outcome["message"],
        "127.0.0.1 accepted the test email to admin@agency.test. Check that it arrived."
    );
    let message = eventually(5, || delivered(smtp.maildir.path()).into_iter().next())
        .await
        .expect("the test email arrives");
    assert!(message.contains("Subject: Carepath test email"));
    let account = admin.ok("/api/settings/email-account").await;
    assert_eq!(account["test_ok"], true);
    assert!(!account.to_string().contains("right-password"));

    // The agency's own email now goes through the saved server too.
    let checklist = admin.ok("/api/setup/checklist").await;
    let mail = checklist["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["key"] == "mail_tested")
        .unwrap();
    assert_eq!(mail["state"], "done");

    // The key file is the owner's alone; the password is nowhere in plain text.
    let key = server.dir.path().join("carepath.db.key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        assert_eq!(
            std::fs::metadata(&key).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let export = admin.get("/api/clients/export.csv").await;
    assert!(!export.text().await.unwrap().contains("right-password"));
    server
        .stop_and_check_absent(&["right-password", "wrong-password"])
        .await;
}

async fn sms_provider(status: u16) -> String {
    use axum::Router;
    use axum::routing::post;
    let app = Router::new().route(
        "/2010-04-01/Accounts/{sid}/Messages.json",
        post(move || async move {
            let status = axum::http::StatusCode::from_u16(status).unwrap();
            if status.is_success() {
                (
                    status,
                    axum::Json(json!({"sid": "SM1", "status": "queued"})),
                )
            } else {
                (status, axum::Json(json!({"message": "Authenticate"})))
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test]
async fn the_test_text_reports_the_providers_answer_and_the_checklist_follows() {
    let server = TestServer::start().await;
    let admin = server.admin().await;
    let sms_item = |checklist: &Value| {
        checklist["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["key"] == "sms")
            .unwrap()["state"]
            .clone()
    };
    let checklist = admin.ok("/api/setup/checklist").await;
    assert_eq!(sms_item(&checklist), "done", "texts are off");
    assert_eq!(checklist["ready"], false);

    let refusing = sms_provider(401).await;
    let version = admin.ok("/api/settings/sms-account").await["version"].clone();
    let saved = expect_json(
        admin
            .put(
                "/api/settings/sms-account",
                json!({"version": version, "enabled": true, "base_url": refusing, "account_sid": "AC1", "auth_token": "sms-secret-token"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(saved["auth_token_set"], true);
    assert_eq!(sms_item(&admin.ok("/api/setup/checklist").await), "missing");
    let outcome = expect_json(
        admin
            .post(
                "/api/settings/sms-account/test",
                json!({"to": "+1 555 010 3000"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(outcome["ok"], false);
    assert!(
        outcome["message"].as_str().unwrap().contains("refused"),
        "{outcome}"
    );

    let accepting = sms_provider(201).await;
    expect_json(
        admin
            .put(
                "/api/settings/sms-account",
                json!({"version": saved["version"], "enabled": true, "base_url": accepting, "account_sid": "AC1"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let outcome = expect_json(
        admin
            .post(
                "/api/settings/sms-account/test",
                json!({"to": "+1 555 010 3000"}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(outcome["ok"], true, "{outcome}");
    assert_eq!(sms_item(&admin.ok("/api/setup/checklist").await), "done");

    // A family's reply is checked with the saved token (unsealed), not only the
    // environment's.
    let forged = crate::notifications::reply(&server, "+12175550100", "Hi", "SM9", "guess").await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let signed =
        crate::notifications::reply(&server, "+12175550100", "Hi", "SM9", "sms-secret-token").await;
    assert_eq!(signed.status(), StatusCode::OK);
    server.stop_and_check_absent(&["sms-secret-token"]).await;
}
