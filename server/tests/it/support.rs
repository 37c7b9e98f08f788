//! A real server per test, signed-in HTTP sessions, and the users every test has.

use std::path::PathBuf;
use std::time::Duration;

use carepath_core::model::{Actor, Channel};
use carepath_core::store::{NewUser, Store};
use carepath_server::{Config, PublicUrl};
use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

pub const ADMIN: (&str, &str) = ("admin@agency.test", "admin-secret");
pub const STAFF: (&str, &str) = ("staff@agency.test", "staff-secret");

pub struct TestServer {
    pub url: String,
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

pub fn install_crypto() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(|_| {}).await
    }

    /// Starts a server whose configuration `adjust` may change (adapters, timeouts).
    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> Self {
        Self::start_seeded(true, adjust).await
    }

    /// Starts a server on a database with no user at all, as on an agency's first day.
    pub async fn start_empty(adjust: impl FnOnce(&mut Config)) -> Self {
        Self::start_seeded(false, adjust).await
    }

    async fn start_seeded(with_users: bool, adjust: impl FnOnce(&mut Config)) -> Self {
        install_crypto();
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("carepath.db");
        if with_users {
            let mut store = Store::open(&db).expect("open store");
            let system = Actor::system(Channel::Cli);
            for ((email, password), (name, is_admin)) in
                [(ADMIN, ("Ada Admin", true)), (STAFF, ("Sam Staff", false))]
            {
                store
                    .create_user(
                        &system,
                        NewUser {
                            email: email.into(),
                            full_name: name.into(),
                            password: Some(password.into()),
                            is_admin,
                        },
                    )
                    .expect("create user");
            }
        }
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let url = format!("http://{addr}");
        let mut config = Config::new(addr, db.clone(), PublicUrl::parse(&url).expect("url"));
        config.outbound_timeout = Duration::from_secs(2);
        config.connect_timeout = Duration::from_secs(1);
        // The reminders' scheduler runs on the real clock; a test that wants it says so.
        config.reminder_interval = Duration::ZERO;
        // So is the reply fetcher: a test reads the mailbox when it says so.
        config.reply_interval = Duration::ZERO;
        adjust(&mut config);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(carepath_server::serve_on(listener, config, async move {
            let _ = stopped.await;
        }));
        Self {
            url,
            dir,
            db,
            stop: Some(stop),
            task: Some(task),
        }
    }

    pub fn outbox(&self) -> PathBuf {
        self.dir.path().join("outbox")
    }

    pub fn anonymous(&self) -> Session {
        Session {
            client: client(),
            url: self.url.clone(),
            cookie: None,
        }
    }

    pub async fn sign_in(&self, (email, password): (&str, &str)) -> Session {
        let mut session = self.anonymous();
        let response = session
            .post(
                "/api/auth/sign-in",
                json!({ "email": email, "password": password }),
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK, "sign-in of {email}");
        session.cookie = Some(session_cookie(&response).expect("session cookie"));
        session
    }

    pub async fn admin(&self) -> Session {
        self.sign_in(ADMIN).await
    }

    pub async fn staff(&self) -> Session {
        self.sign_in(STAFF).await
    }

    /// Stops the server gracefully and waits for it, keeping its folder (database and
    /// outbox) for another server to start over.
    pub async fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(Duration::from_secs(40), task).await;
            assert!(result.is_ok(), "the server did not stop in time");
        }
    }

    /// Stops the server gracefully and waits for it.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let result = tokio::time::timeout(Duration::from_secs(10), task).await;
            assert!(result.is_ok(), "the server did not stop in time");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

pub fn client() -> reqwest::Client {
    install_crypto();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client")
}

/// `name=value` of the session cookie a response sets.
pub fn session_cookie(response: &Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| {
            value.starts_with("carepath_session=") && !value.starts_with("carepath_session=;")
        })
        .and_then(|value| value.split(';').next())
        .map(str::to_owned)
}

pub struct Session {
    pub client: reqwest::Client,
    pub url: String,
    pub cookie: Option<String>,
}

impl Session {
    pub fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let mut request = self.client.request(method, format!("{}{path}", self.url));
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        request
    }

    pub async fn get(&self, path: &str) -> Response {
        self.request(Method::GET, path).send().await.expect("GET")
    }

    pub async fn post(&self, path: &str, body: Value) -> Response {
        self.request(Method::POST, path)
            .json(&body)
            .send()
            .await
            .expect("POST")
    }

    pub async fn put(&self, path: &str, body: Value) -> Response {
        self.request(Method::PUT, path)
            .json(&body)
            .send()
            .await
            .expect("PUT")
    }

    pub async fn delete(&self, path: &str) -> Response {
        self.request(Method::DELETE, path)
            .send()
            .await
            .expect("DELETE")
    }

    /// The stored version of a record, as a save or send must name it.
    pub async fn version(&self, path: &str) -> i64 {
        self.ok(path).await["version"]
            .as_i64()
            .expect("a record with a version")
    }

    /// GET that must succeed, as JSON.
    pub async fn ok(&self, path: &str) -> Value {
        expect_json(self.get(path).await, StatusCode::OK).await
    }
}

/// The body of a response that must have `status`.
pub async fn expect_json(response: Response, status: StatusCode) -> Value {
    let actual = response.status();
    let text = response.text().await.expect("body");
    assert_eq!(actual, status, "unexpected status; body: {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// The error body of a response that must have `status`: (code, message).
/// Saves an assessment of `form` for the intake; the assessment's id.
pub async fn saved_assessment(staff: &Session, intake_id: &str, form: Value) -> String {
    let assessment = expect_json(
        staff
            .post(
                "/api/assessments",
                json!({"intake_id": intake_id, "form": form}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assessment["id"].as_str().unwrap().to_owned()
}

pub async fn expect_error(response: Response, status: StatusCode) -> (String, String, Value) {
    let body = expect_json(response, status).await;
    let code = body["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let message = body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (code, message, body)
}

/// A minimal intake form that passes submit validation.
pub fn intake_form(client: &str) -> Value {
    json!({
        "staffMemberTakingCall": "Sam Staff",
        "callerName": "Grace Hopper",
        "callerPhone": "(217) 555-0100",
        "callerEmail": "grace@family.test",
        "relationshipToClient": "Daughter",
        "clientFullName": client,
        "servicesRequired": ["Companionship"],
    })
}

/// Polls `check` until it returns Some, for at most `seconds`.
pub async fn eventually<T>(seconds: u64, mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(value) = check() {
            return Some(value);
        }
        if tokio::time::Instant::now() > deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The outbox's `.eml` files' text.
pub fn outbox_emails(server: &TestServer) -> Vec<String> {
    let mut emails = emails_in(&server.outbox());
    emails.extend(private_outbox_emails(server));
    emails
}

/// The emails that carry a secret link, as their recipients would read them.
pub fn private_outbox_emails(server: &TestServer) -> Vec<String> {
    emails_in(&server.outbox().join("private"))
}

/// An email's text with quoted-printable soft breaks and `=3D` undone, as a mail
/// program shows it.
pub fn readable(email: &str) -> String {
    email
        .replace("=\r\n", "")
        .replace("=\n", "")
        .replace("=3D", "=")
}

fn emails_in(dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".eml"))
        .filter_map(|entry| std::fs::read_to_string(entry.path()).ok())
        .collect()
}
