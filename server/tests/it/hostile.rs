//! Hostile input for every operation of the OpenAPI document, generated from it: malformed
//! JSON, wrong types, huge and unicode strings, NUL bytes, out-of-range numbers and bad
//! ids. No answer may be a 5xx, and every refusal is the API's JSON error body. This is
//! the bounded version `cargo test` runs; `make drills` sends the full set to a real
//! server and watches its memory.

use reqwest::{Method, StatusCode};
use serde_json::{Map, Value, json};

use crate::support::{Session, TestServer};
use crate::walk::{self, Answer, Operation, RealIds};

/// A string as long as a body may carry with room for the rest of it.
const HUGE: usize = 1_000_000;

/// Values put in place of one field of an otherwise plausible body.
fn hostile_values() -> Vec<(&'static str, Value)> {
    vec![
        ("a 1 MB string", Value::String("x".repeat(HUGE))),
        (
            "unicode",
            json!("Zoë Ⅻ 🧓🏽 \u{202e}evil\u{202c} 日本語 e\u{301} \u{fffd}"),
        ),
        ("a NUL byte", json!("a\u{0}b")),
        ("a line break", json!("a\r\nTo: other@evil.test")),
        ("1e308", json!(1e308)),
        ("-1", json!(-1)),
        ("2^63", json!(9_223_372_036_854_775_808_u64)),
        ("-2^63-1", json!(-9_223_372_036_854_775_809.0_f64)),
        ("true", json!(true)),
        ("an array", json!(["x"])),
        ("an object", json!({"x": 1})),
        ("null", Value::Null),
        ("a bad id", json!("not-an-id")),
    ]
}

/// Bodies that are not the JSON the operation reads at all.
fn malformed_bodies() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("an empty body", Vec::new()),
        ("an open brace", b"{".to_vec()),
        ("a cut-off object", b"{\"a\": ".to_vec()),
        ("an array", b"[]".to_vec()),
        ("null", b"null".to_vec()),
        ("a string", b"\"text\"".to_vec()),
        ("1e999", b"1e999".to_vec()),
        (
            "bytes that are not UTF-8",
            vec![b'{', b'"', 0xff, 0xfe, b'"', b':', b'1', b'}'],
        ),
        ("a trailing comma", b"{\"a\": 1,}".to_vec()),
        ("100,000 nested arrays", "[".repeat(100_000).into_bytes()),
    ]
}

/// Path ids that name nothing, or nothing sensible.
fn bad_ids() -> Vec<String> {
    vec![
        "not-an-id".into(),
        "%00".into(),
        "..%2F..%2Fetc%2Fpasswd".into(),
        "x".repeat(5_000),
        "00000000-0000-0000-0000-000000000000".into(),
        "-1".into(),
        "9223372036854775808".into(),
        "%F0%9F%A7%93%F0%9F%8F%BD".into(),
    ]
}

/// Query values, already percent-encoded where needed.
fn hostile_query_values() -> Vec<String> {
    vec![
        // Long enough to cost a search dearly, as the issue measured; the drill sends 60,000.
        "x".repeat(1_000),
        "Zo%C3%AB%20%F0%9F%A7%93%E2%80%AE".into(),
        "a%00b".into(),
        "-1".into(),
        "1e308".into(),
        "9223372036854775808".into(),
        String::new(),
        "not-an-id".into(),
        "%25".into(),
        "%27%3B%20DROP%20TABLE%20intakes%3B%20--".into(),
    ]
}

/// A plausible value for `schema`: the field's example of itself, so that a body with one
/// hostile field is refused (or accepted) for that field alone.
fn sample(doc: &Value, schema: &Value, name: &str, depth: usize) -> Value {
    let schema = walk::resolve(doc, schema);
    if let Some(first) = schema["enum"].as_array().and_then(|values| values.first()) {
        return first.clone();
    }
    if let Some(members) = schema["oneOf"].as_array().or(schema["anyOf"].as_array())
        && let Some(first) = members.iter().find(|member| member["type"] != "null")
    {
        return sample(doc, first, name, depth);
    }
    let kind = match &schema["type"] {
        Value::String(kind) => kind.clone(),
        Value::Array(kinds) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("null")
            .to_owned(),
        _ if schema["properties"].is_object() => "object".to_owned(),
        _ => "null".to_owned(),
    };
    let name = name.to_lowercase();
    match kind.as_str() {
        "object" if depth < 4 => {
            let mut object = Map::new();
            for (field, property) in schema["properties"].as_object().into_iter().flatten() {
                object.insert(field.clone(), sample(doc, property, field, depth + 1));
            }
            Value::Object(object)
        }
        "object" => json!({}),
        "array" => json!([]),
        "integer" => json!(1),
        "number" => json!(1.5),
        "boolean" => json!(false),
        "string" => match schema["format"].as_str() {
            Some("date") => json!("2026-12-01"),
            Some("date-time") => json!("2026-12-01T10:00:00Z"),
            Some("uuid") => json!(uuid::Uuid::now_v7().to_string()),
            _ if name.contains("email") || name == "to" => json!("family@agency.test"),
            _ if name.contains("phone") => json!("(217) 555-0100"),
            _ if name.ends_with("_id") || name.ends_with("id") && name.len() > 2 => {
                json!(uuid::Uuid::now_v7().to_string())
            }
            _ => json!("Ada"),
        },
        _ => Value::Null,
    }
}

/// The places a hostile value is put: each top-level field, and each field of an object
/// one level down (an intake's form), as JSON pointer segments.
fn targets(body: &Value) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (field, value) in body.as_object().into_iter().flatten() {
        found.push(vec![field.clone()]);
        for inner in value.as_object().into_iter().flatten().map(|(key, _)| key) {
            found.push(vec![field.clone(), inner.clone()]);
        }
    }
    found
}

fn with_value(body: &Value, target: &[String], value: &Value) -> Value {
    let mut body = body.clone();
    let mut slot = &mut body;
    for key in target {
        slot = &mut slot[key.as_str()];
    }
    *slot = value.clone();
    body
}

/// Sends the requests as an administrator (who reaches every handler), signing in again
/// when a request ended the session, and keeps what went wrong.
struct Walker<'a> {
    server: &'a TestServer,
    admin: Session,
    sent: usize,
    violations: Vec<String>,
}

impl Walker<'_> {
    async fn send(&mut self, operation: &Operation, path: &str, body: Option<Vec<u8>>, what: &str) {
        let mut answer = self.send_once(operation, path, body.clone()).await;
        if answer.status == StatusCode::UNAUTHORIZED && !operation.is_public() {
            self.admin = self.server.admin().await;
            answer = self.send_once(operation, path, body).await;
        }
        self.sent += 1;
        let name = operation.name();
        if answer.status.is_server_error() {
            self.violations
                .push(format!("{name} with {what}: {}", answer.describe()));
        } else if answer.status.is_client_error() && !answer.is_error_body() {
            self.violations.push(format!(
                "{name} with {what}: refused without an error body: {}",
                answer.describe()
            ));
        }
        if operation.signs_out() {
            self.admin = self.server.admin().await;
        }
    }

    async fn send_once(&self, operation: &Operation, path: &str, body: Option<Vec<u8>>) -> Answer {
        let mut request = self.admin.request(operation.method.clone(), path);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        match request.send().await {
            Ok(response) => Answer::read(response, operation.streams()).await,
            // A refused connection or a reset is a failure as bad as a 500.
            Err(error) => Answer {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                body: format!("no answer: {error}"),
            },
        }
    }
}

#[tokio::test]
async fn hostile_input_to_every_operation_gets_a_json_refusal_and_never_a_5xx() {
    let server = walk::unthrottled_server().await;
    let admin = server.admin().await;
    let ids = RealIds::make(&admin).await;
    let doc = walk::document();
    let operations = walk::operations(&ids);
    let mut walker = Walker {
        server: &server,
        admin,
        sent: 0,
        violations: Vec::new(),
    };
    let values = hostile_values();
    let malformed = malformed_bodies();
    let query_values = hostile_query_values();
    let ids = bad_ids();
    // Each operation gets a rotating share of every list, so the run takes seconds while
    // every value still reaches every kind of field and route; `make drills` sends them
    // all.
    let mut turn = 0;
    let mut next = |list_len: usize, count: usize| {
        turn += 1;
        (0..count.min(list_len))
            .map(|k| (turn * 7 + k) % list_len)
            .collect::<Vec<_>>()
    };
    for operation in &operations {
        if let Some(schema) = operation.body_schema(&doc) {
            let base = sample(&doc, &schema, "", 0);
            for index in next(malformed.len(), 4) {
                let (what, bytes) = &malformed[index];
                walker
                    .send(operation, &operation.path, Some(bytes.clone()), what)
                    .await;
            }
            let base_bytes = serde_json::to_vec(&base).unwrap();
            walker
                .send(
                    operation,
                    &operation.path,
                    Some(base_bytes),
                    "a plausible body",
                )
                .await;
            for target in targets(&base) {
                let count = if target.len() == 1 { 5 } else { 1 };
                for index in next(values.len(), count) {
                    let (what, value) = &values[index];
                    let body = serde_json::to_vec(&with_value(&base, &target, value)).unwrap();
                    let what = format!("{what} in {}", target.join("."));
                    walker
                        .send(operation, &operation.path, Some(body), &what)
                        .await;
                }
            }
        }
        for param in operation.query_params() {
            for index in next(query_values.len(), 4) {
                let value = &query_values[index];
                let path = format!("{}?{param}={value}", operation.path);
                let what = format!("{param}={}", value.chars().take(40).collect::<String>());
                walker.send(operation, &path, None, &what).await;
            }
        }
        if operation.has_path_id() {
            for index in next(ids.len(), 3) {
                let id = &ids[index];
                let path = operation.path_with_id(id);
                let body = (operation.method != Method::GET && operation.method != Method::DELETE)
                    .then(|| b"{}".to_vec());
                let what = format!("the id {}", id.chars().take(40).collect::<String>());
                walker.send(operation, &path, body, &what).await;
            }
        }
    }
    // Whatever the hostile requests stored, every page, PDF and export still answers.
    for operation in operations.iter().filter(|op| op.method == Method::GET) {
        walker
            .send(operation, &operation.path, None, "the data stored above")
            .await;
    }
    let Walker {
        sent, violations, ..
    } = walker;
    assert!(sent > 1_000, "{sent} hostile requests");
    assert!(
        violations.is_empty(),
        "{} of {sent} hostile requests failed:\n{}",
        violations.len(),
        violations
            .iter()
            .take(60)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
