//! Families' emailed replies, read from a real Dovecot IMAP server on loopback (TLS with
//! a certificate made for the test, a static user, a Maildir in a temporary folder):
//! a reply to the proposal lands once on the client's timeline, unread, however often
//! it is fetched or delivered; fetching works again after Dovecot restarts; a stranger's
//! email waits in the Unmatched list until an administrator assigns it; a plain yes
//! offers staff the approval, and only their click approves.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use carepath_core::model::CarePlanId;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::signing::plan_ready;
use crate::support::{Session, TestServer, expect_error, expect_json};

const USER: &str = "agency";
const PASSWORD: &str = "app-password";

struct Dovecot {
    dir: tempfile::TempDir,
    config: PathBuf,
    cert: PathBuf,
    port: u16,
}

fn dovecot_binary() -> &'static str {
    if Path::new("/usr/sbin/dovecot").exists() {
        "/usr/sbin/dovecot"
    } else {
        "dovecot"
    }
}

fn id_of(args: &[&str]) -> String {
    let out = Command::new("id").args(args).output().expect("id runs");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

impl Dovecot {
    /// Writes the configuration and certificate and starts Dovecot. Run as root, its
    /// mail processes may not be root: they run as the `dovecot` account, which then
    /// owns the Maildir; otherwise everything runs as the current user.
    fn start() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let cert = root.join("cert.pem");
        let key = root.join("key.pem");
        let made = Command::new("openssl")
            .args([
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
            ])
            .args(["-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"])
            .args(["-addext", "subjectAltName=IP:127.0.0.1"])
            .args(["-addext", "basicConstraints=critical,CA:FALSE"])
            .args(["-addext", "extendedKeyUsage=serverAuth"])
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
        let as_root = id_of(&["-u"]) == "0";
        let (login_user, internal_user, mail_uid, mail_gid) = if as_root {
            (
                "dovenull".to_owned(),
                "dovecot".to_owned(),
                id_of(&["-u", "dovecot"]),
                id_of(&["-g", "dovecot"]),
            )
        } else {
            let me = id_of(&["-un"]);
            (me.clone(), me, id_of(&["-u"]), id_of(&["-g"]))
        };
        let mail = root.join("mail");
        let home = root.join("home");
        std::fs::create_dir_all(&mail).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        if as_root {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755)).unwrap();
            let (uid, gid) = (mail_uid.parse().unwrap(), mail_gid.parse().unwrap());
            for owned in [&mail, &home] {
                std::os::unix::fs::chown(owned, Some(uid), Some(gid)).unwrap();
            }
        }
        let config = root.join("dovecot.conf");
        let root_text = root.display();
        std::fs::write(
            &config,
            format!(
                "base_dir = {root_text}/run\n\
                 state_dir = {root_text}/state\n\
                 log_path = {root_text}/dovecot.log\n\
                 protocols = imap\n\
                 listen = 127.0.0.1\n\
                 ssl = required\n\
                 ssl_cert = <{cert}\n\
                 ssl_key = <{key}\n\
                 default_login_user = {login_user}\n\
                 default_internal_user = {internal_user}\n\
                 default_internal_group = {internal_user}\n\
                 first_valid_uid = 1\n\
                 auth_mechanisms = plain login\n\
                 passdb {{\n  driver = static\n  args = user={USER} password={PASSWORD}\n}}\n\
                 userdb {{\n  driver = static\n  args = uid={mail_uid} gid={mail_gid} home={home}\n}}\n\
                 mail_location = maildir:{mail}\n\
                 service imap-login {{\n  chroot =\n  inet_listener imap {{\n    port = 0\n  }}\n  inet_listener imaps {{\n    port = {port}\n    ssl = yes\n  }}\n}}\n\
                 service anvil {{\n  chroot =\n}}\n",
                cert = cert.display(),
                key = key.display(),
                home = home.display(),
                mail = mail.display(),
            ),
        )
        .unwrap();
        let dovecot = Self {
            dir,
            config,
            cert,
            port,
        };
        dovecot.run();
        dovecot
    }

    fn run(&self) {
        let started = Command::new(dovecot_binary())
            .arg("-c")
            .arg(&self.config)
            .stdout(Stdio::null())
            .status()
            .expect("dovecot runs (scripts/setup installs dovecot-imapd)");
        assert!(started.success(), "dovecot did not start: {}", self.log());
        let up = (0..200).any(|_| {
            let ok = std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok();
            if !ok {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            ok
        });
        assert!(up, "dovecot is not listening: {}", self.log());
    }

    fn stop(&self) {
        let _ = Command::new("doveadm")
            .arg("-c")
            .arg(&self.config)
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let down = (0..200).any(|_| {
            let closed = std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err();
            if !closed {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            closed
        });
        assert!(down, "dovecot did not stop");
    }

    /// Delivers a message into the user's INBOX, as the mail server's delivery would.
    fn deliver(&self, message: &str) {
        use std::io::Write;
        let mut child = Command::new("doveadm")
            .arg("-c")
            .arg(&self.config)
            .args(["save", "-u", USER])
            .stdin(Stdio::piped())
            .spawn()
            .expect("doveadm runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(message.replace('\n', "\r\n").as_bytes())
            .unwrap();
        assert!(
            child.wait().unwrap().success(),
            "doveadm save failed: {}",
            self.log()
        );
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("dovecot.log")).unwrap_or_default()
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        let _ = Command::new("doveadm")
            .arg("-c")
            .arg(&self.config)
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

async fn server_for(dovecot: &Dovecot) -> TestServer {
    let cert = dovecot.cert.clone();
    TestServer::start_with(move |config| config.imap_ca_file = Some(cert)).await
}

async fn save_mailbox(admin: &Session, dovecot: &Dovecot) {
    let version = admin.ok("/api/settings/reply-mailbox").await["version"].clone();
    let saved = expect_json(
        admin
            .put(
                "/api/settings/reply-mailbox",
                json!({
                    "version": version, "enabled": true, "host": "127.0.0.1",
                    "port": dovecot.port, "username": USER, "auth": "password",
                    "folder": "INBOX", "secret": PASSWORD,
                }),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(saved["secret_set"], true);
    assert!(
        saved.get("secret").is_none(),
        "the secret is never answered"
    );
}

async fn fetch(admin: &Session) -> Value {
    expect_json(
        admin
            .post("/api/settings/reply-mailbox/fetch", json!({}))
            .await,
        StatusCode::OK,
    )
    .await
}

/// Sends the proposal through the API; the client and the id the sent email carries
/// in its Message-ID (`<id@carepath>`).
async fn proposal_sent(server: &TestServer, plan: &CarePlanId) -> (String, String) {
    let staff = server.staff().await;
    let version = staff.version(&format!("/api/care-plans/{plan}")).await;
    let sent = expect_json(
        staff
            .post(
                &format!("/api/care-plans/{plan}/send"),
                json!({ "to": "ruth@family.test", "body": "Dear Ruth, here is our proposal.", "version": version }),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    let intake = staff.ok(&format!("/api/care-plans/{plan}")).await["intake_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let timeline = timeline(&staff, &intake).await;
    let email_id = timeline
        .iter()
        .find(|c| c["direction"] == "outbound" && c["communication_type"] == "email")
        .and_then(|c| c["metadata"]["email_id"].as_str())
        .unwrap_or_else(|| panic!("the sent proposal email: {sent}"))
        .to_owned();
    (intake, email_id)
}

async fn timeline(session: &Session, intake: &str) -> Vec<Value> {
    session
        .ok(&format!("/api/communications?intake_id={intake}"))
        .await["items"]
        .as_array()
        .unwrap()
        .clone()
}

fn replies(timeline: &[Value]) -> Vec<&Value> {
    timeline
        .iter()
        .filter(|c| c["direction"] == "inbound")
        .collect()
}

/// The family's answer, from another address than the proposal went to: only the
/// thread can tell whose it is. It quotes the proposal and carries two files.
fn family_reply(answers: &str) -> String {
    format!(
        "From: Ruth Ames <ruth.ames@othermail.test>\n\
         To: office@agency.test\n\
         Subject: Re: Home Care Proposal\n\
         Message-ID: <reply-yes@othermail.test>\n\
         In-Reply-To: <{answers}@carepath>\n\
         References: <{answers}@carepath>\n\
         Date: Wed, 25 Nov 2026 10:00:00 -0600\n\
         MIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"part\"\n\
         \n\
         --part\n\
         Content-Type: text/plain; charset=utf-8\n\
         \n\
         Yes please!\n\
         \n\
         On Tue, Nov 24, 2026 at 9:00 AM Sunrise Care <office@agency.test> wrote:\n\
         > Dear Ruth, here is our proposal. Any questions?\n\
         --part\n\
         Content-Type: application/pdf\n\
         Content-Disposition: attachment; filename=\"signed-page.pdf\"\n\
         Content-Transfer-Encoding: base64\n\
         \n\
         JVBERi0xLjQKJSVFT0YK\n\
         --part\n\
         Content-Type: application/x-msdownload\n\
         Content-Disposition: attachment; filename=\"setup.exe\"\n\
         Content-Transfer-Encoding: base64\n\
         \n\
         TVqQAA==\n\
         --part--\n"
    )
}

#[tokio::test]
async fn a_family_reply_lands_once_unread_and_a_plain_yes_waits_for_a_staff_click() {
    let dovecot = Dovecot::start();
    let server = server_for(&dovecot).await;
    let admin = server.admin().await;
    let staff = server.staff().await;
    let plan = plan_ready(&server, "Harold Ames");
    let (intake, email_id) = proposal_sent(&server, &plan).await;
    save_mailbox(&admin, &dovecot).await;

    dovecot.deliver(&family_reply(&email_id));
    let first = fetch(&admin).await;
    assert_eq!(first["ok"], true, "{first}");
    assert_eq!(
        (first["kept"].clone(), first["unmatched"].clone()),
        (json!(1), json!(0))
    );
    // Fetched again (through the cron command this time), and delivered a second time:
    // still one reply.
    let config = {
        let mut config = carepath_server::Config::new(
            ([127, 0, 0, 1], 0).into(),
            server.db.clone(),
            carepath_server::PublicUrl::parse(&server.url).unwrap(),
        );
        config.imap_ca_file = Some(dovecot.cert.clone());
        config
    };
    let again =
        tokio::task::spawn_blocking(move || carepath_server::fetch_replies_blocking(config))
            .await
            .unwrap()
            .unwrap();
    assert!(again.kept.is_empty(), "nothing new: {again:?}");
    dovecot.deliver(&family_reply(&email_id));
    let twice = fetch(&admin).await;
    assert_eq!(twice["kept"], 0, "{twice}");

    let timeline = timeline(&staff, &intake).await;
    let replies = replies(&timeline);
    assert_eq!(replies.len(), 1, "{timeline:#?}");
    let reply = replies[0].clone();
    assert_eq!(reply["communication_type"], "email");
    assert_eq!(reply["recipient_email"], "ruth.ames@othermail.test");
    assert_eq!(
        reply["care_plan_id"],
        plan.as_str(),
        "matched by the thread"
    );
    assert!(
        reply["content"]
            .as_str()
            .unwrap()
            .starts_with("Yes please!")
    );
    assert!(reply["read_at"].is_null(), "unread until opened");
    // The PDF is kept and can be downloaded; the program is only named.
    let files = reply["metadata"]["attachments"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{reply}");
    assert_eq!(files[0]["name"], "signed-page.pdf");
    let download = staff
        .get(&format!(
            "/api/communications/{}/attachments/{}",
            reply["id"].as_str().unwrap(),
            files[0]["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(download.status(), StatusCode::OK);
    assert_eq!(download.headers()["content-type"], "application/pdf");
    assert!(download.bytes().await.unwrap().starts_with(b"%PDF-1.4"));
    assert_eq!(
        reply["metadata"]["notKept"][0]["reason"],
        "setup.exe is not a supported file type."
    );
    // The hub lists it among the replies.
    let hub = staff.ok("/api/communications/hub?direction=inbound").await;
    assert!(
        hub["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == reply["id"]),
        "{hub}"
    );

    // The plain yes offers the approval; nothing is approved until a click.
    let pending = staff
        .ok(&format!("/api/intakes/{intake}/pending-acceptance"))
        .await["pending"]
        .clone();
    assert_eq!(pending["communication_id"], reply["id"]);
    assert_eq!(pending["text"], "Yes please!");
    assert_eq!(
        pending["prompt"],
        "Family replied YES to the proposal — approve?"
    );
    assert_eq!(
        staff.ok(&format!("/api/care-plans/{plan}")).await["status"],
        "sent"
    );

    let opened = expect_json(
        staff
            .post(
                &format!("/api/communications/{}/read", reply["id"].as_str().unwrap()),
                json!({}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert!(opened["read_at"].is_string());

    let approved = expect_json(
        staff
            .post(
                &format!(
                    "/api/communications/{}/approve-proposal",
                    reply["id"].as_str().unwrap()
                ),
                json!({}),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(approved["status"], "approved");
    let timeline = self::timeline(&staff, &intake).await;
    let evidence = timeline
        .iter()
        .find(|c| c["metadata"]["evidenceCommunicationId"] == reply["id"])
        .expect("the approval's evidence line");
    assert_eq!(
        evidence["content"],
        "Proposal approved by Sam Staff on the family's email reply: “Yes please!”"
    );
    assert!(
        timeline
            .iter()
            .any(|c| c["content"] == "Care plan approved by the family"),
        "{timeline:#?}"
    );
    // Approved once: the offer is gone and a second click is refused.
    assert!(
        staff
            .ok(&format!("/api/intakes/{intake}/pending-acceptance"))
            .await["pending"]
            .is_null()
    );
    expect_error(
        staff
            .post(
                &format!(
                    "/api/communications/{}/approve-proposal",
                    reply["id"].as_str().unwrap()
                ),
                json!({}),
            )
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    server.stop().await;
}

#[tokio::test]
async fn fetching_works_again_after_the_mail_server_restarts() {
    let dovecot = Dovecot::start();
    let server = server_for(&dovecot).await;
    let admin = server.admin().await;
    save_mailbox(&admin, &dovecot).await;
    let message = |n: u32| {
        format!(
            "From: someone{n}@elsewhere.test\nTo: office@agency.test\nSubject: Note {n}\n\
             Message-ID: <note-{n}@elsewhere.test>\n\nMessage number {n}.\n"
        )
    };
    dovecot.deliver(&message(1));
    assert_eq!(fetch(&admin).await["kept"], 1);

    dovecot.stop();
    let down = fetch(&admin).await;
    assert_eq!(down["ok"], false, "{down}");
    assert!(
        down["message"]
            .as_str()
            .unwrap()
            .starts_with("Cannot connect to 127.0.0.1"),
        "{down}"
    );
    let settings = admin.ok("/api/settings/reply-mailbox").await;
    assert_eq!(settings["check_ok"], false);

    dovecot.run();
    dovecot.deliver(&message(2));
    let back = fetch(&admin).await;
    assert_eq!(back["ok"], true, "{back}");
    // Only the new message: the UIDs read before the restart are not read again.
    assert_eq!(back["kept"], 1, "{back}");
    let unmatched = admin.ok("/api/communications/unmatched").await;
    let subjects: Vec<&str> = unmatched["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["subject"].as_str())
        .collect();
    assert_eq!(subjects, ["Note 2", "Note 1"]);
    server.stop().await;
}

#[tokio::test]
async fn a_strangers_email_waits_in_unmatched_until_an_administrator_assigns_it() {
    let dovecot = Dovecot::start();
    let server = server_for(&dovecot).await;
    let admin = server.admin().await;
    let staff = server.staff().await;
    save_mailbox(&admin, &dovecot).await;
    let plan = plan_ready(&server, "Iris Vale");
    let intake = staff.ok(&format!("/api/care-plans/{plan}")).await["intake_id"]
        .as_str()
        .unwrap()
        .to_owned();
    dovecot.deliver(
        "From: Cousin Vale <cousin@unknown.test>\nTo: office@agency.test\nSubject: About Iris\n\
         Message-ID: <cousin-1@unknown.test>\n\nCan someone call me about Iris?\n",
    );
    // A caller's own address finds the client without any thread.
    dovecot.deliver(
        "From: Ruth <RUTH@family.test>\nTo: office@agency.test\nSubject: Hello\n\
         Message-ID: <ruth-1@family.test>\n\nA quick hello.\n",
    );
    let round = fetch(&admin).await;
    assert_eq!(
        (round["kept"].clone(), round["unmatched"].clone()),
        (json!(2), json!(1)),
        "{round}"
    );
    assert!(
        replies(&timeline(&staff, &intake).await)
            .iter()
            .any(|c| c["subject"] == "Hello" && c["metadata"]["matchedBy"] == "sender")
    );

    let unmatched = staff.ok("/api/communications/unmatched").await["items"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(unmatched.len(), 1);
    let stranger = unmatched[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(unmatched[0]["recipient_email"], "cousin@unknown.test");
    assert!(unmatched[0]["intake_id"].is_null());

    expect_error(
        staff
            .post(
                &format!("/api/communications/{stranger}/assign"),
                json!({ "intake_id": intake }),
            )
            .await,
        StatusCode::FORBIDDEN,
    )
    .await;
    let assigned = expect_json(
        admin
            .post(
                &format!("/api/communications/{stranger}/assign"),
                json!({ "intake_id": intake }),
            )
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(assigned["intake_id"], intake.as_str());
    assert!(
        assigned["read_at"].is_null(),
        "still unread on the timeline"
    );
    assert!(
        admin.ok("/api/communications/unmatched").await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        replies(&timeline(&staff, &intake).await)
            .iter()
            .any(|c| c["id"] == stranger.as_str())
    );
    // A question is no acceptance (and no proposal waits here anyway).
    assert!(
        staff
            .ok(&format!("/api/intakes/{intake}/pending-acceptance"))
            .await["pending"]
            .is_null()
    );
    server.stop().await;
}
