//! The API's operations as the OpenAPI document lists them, with their path ids filled in
//! and their bodies' schemas resolved: what the authorization matrix and the hostile-input
//! tests walk, so a new route is covered the moment it is registered.

use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};

use crate::support::{Session, TestServer, intake_form};

/// One operation of the document.
pub struct Operation {
    pub method: Method,
    /// The path as documented, e.g. `/api/intakes/{id}`.
    pub template: String,
    /// The path with its ids filled in.
    pub path: String,
    pub spec: Value,
}

impl Operation {
    /// Open without a session (`security: [{}]` in the document).
    pub fn is_public(&self) -> bool {
        self.spec["security"] == json!([{}])
    }

    /// Only administrators may call it (the server marks handlers taking `AdminUser`).
    pub fn is_admin_only(&self) -> bool {
        self.spec["x-admin-only"] == json!(true)
    }

    pub fn name(&self) -> String {
        format!("{} {}", self.method, self.template)
    }

    /// Ends the caller's session: walked last, so the others still have one.
    pub fn signs_out(&self) -> bool {
        self.template == "/api/auth/sign-out"
    }

    /// An endless event stream: its answer's head is all a test can wait for.
    pub fn streams(&self) -> bool {
        self.template == "/api/events"
    }

    /// The JSON schema of its request body, references resolved at the top.
    pub fn body_schema(&self, doc: &Value) -> Option<Value> {
        let schema = self.spec["requestBody"]["content"]["application/json"]["schema"].clone();
        (!schema.is_null()).then(|| resolve(doc, &schema))
    }

    /// The names of its query parameters.
    pub fn query_params(&self) -> Vec<String> {
        self.spec["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|param| param["in"] == "query")
            .filter_map(|param| param["name"].as_str().map(str::to_owned))
            .collect()
    }

    pub fn has_path_id(&self) -> bool {
        self.template.contains("{id}")
    }

    /// The path with `id` in place of the documented id.
    pub fn path_with_id(&self, id: &str) -> String {
        self.template.replace("{id}", id)
    }
}

pub fn document() -> Value {
    serde_json::to_value(carepath_server::openapi()).expect("document")
}

/// Follows `$ref` (and a lone `allOf`/`oneOf` member) to the schema it names.
pub fn resolve(doc: &Value, schema: &Value) -> Value {
    let mut schema = schema.clone();
    for _ in 0..8 {
        if let Some(reference) = schema["$ref"].as_str() {
            let name = reference.rsplit('/').next().unwrap_or_default();
            schema = doc["components"]["schemas"][name].clone();
            continue;
        }
        let single = ["allOf", "oneOf", "anyOf"].iter().find_map(|key| {
            let members: Vec<&Value> = schema[*key]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|member| member["type"] != "null")
                .collect();
            (members.len() == 1).then(|| members[0].clone())
        });
        match single {
            Some(member) => schema = member,
            None => break,
        }
    }
    schema
}

/// Records made before a walk, so ids in paths reach real rows where that is cheap.
pub struct RealIds {
    /// (path prefix, id): `/api/intakes` fills `/api/intakes/{id}/…`.
    by_prefix: Vec<(&'static str, String)>,
}

impl RealIds {
    /// An intake with a contact, made by `admin`.
    pub async fn make(admin: &Session) -> Self {
        let intake = ok_json(
            admin
                .post("/api/intakes", json!({"form": intake_form("Walk Client")}))
                .await,
        )
        .await;
        let intake_id = intake["id"].as_str().expect("intake id").to_owned();
        let contact = ok_json(
            admin
                .post(
                    &format!("/api/intakes/{intake_id}/contacts"),
                    json!({"full_name": "Walk Contact", "relationship": "Son", "phone": "(217) 555-0101"}),
                )
                .await,
        )
        .await;
        let mut by_prefix = vec![("/api/intakes", intake_id)];
        if let Some(id) = contact["id"].as_str() {
            by_prefix.push(("/api/contacts", id.to_owned()));
        }
        Self { by_prefix }
    }

    /// A real id for the template's resource, or a random one that names no row.
    pub fn for_template(&self, template: &str) -> String {
        self.by_prefix
            .iter()
            .find(|(prefix, _)| template.starts_with(&format!("{prefix}/{{id}}")))
            .map(|(_, id)| id.clone())
            .unwrap_or_else(|| uuid::Uuid::now_v7().to_string())
    }
}

async fn ok_json(response: Response) -> Value {
    let status = response.status();
    let text = response.text().await.unwrap_or_default();
    assert_eq!(status, StatusCode::OK, "setting up the walk: {text}");
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// Every GET/POST/PUT/DELETE of the document, sign-out last, ids filled from `ids`.
pub fn operations(ids: &RealIds) -> Vec<Operation> {
    let doc = document();
    let mut found = Vec::new();
    for (template, item) in doc["paths"].as_object().expect("paths") {
        for (method, spec) in item.as_object().expect("path item") {
            let Ok(method) = method.to_uppercase().parse::<Method>() else {
                continue;
            };
            if !spec.is_object()
                || !matches!(
                    method,
                    Method::GET | Method::POST | Method::PUT | Method::DELETE
                )
            {
                continue;
            }
            found.push(Operation {
                path: template.replace("{id}", &ids.for_template(template)),
                method,
                template: template.clone(),
                spec: spec.clone(),
            });
        }
    }
    found.sort_by_key(Operation::signs_out);
    found
}

/// The answer to one request, read whole (or only its head for a stream that opened).
pub struct Answer {
    pub status: StatusCode,
    pub body: String,
}

impl Answer {
    pub async fn read(response: Response, head_only: bool) -> Self {
        let status = response.status();
        let body = if head_only && status.is_success() {
            String::new()
        } else {
            response.text().await.unwrap_or_default()
        };
        Self { status, body }
    }

    /// `{"error": {"code", "message"}}` with both non-empty strings.
    pub fn is_error_body(&self) -> bool {
        let Ok(body) = serde_json::from_str::<Value>(&self.body) else {
            return false;
        };
        let code = body["error"]["code"].as_str().unwrap_or_default();
        let message = body["error"]["message"].as_str().unwrap_or_default();
        !code.is_empty() && !message.is_empty()
    }

    /// What a test prints about it: status and the start of the body.
    pub fn describe(&self) -> String {
        let start: String = self.body.chars().take(200).collect();
        format!("{} {start}", self.status)
    }
}

/// Sends `operation` as `session` with an empty JSON object as its body.
pub async fn call(session: &Session, operation: &Operation) -> Answer {
    let response = session
        .request(operation.method.clone(), &operation.path)
        .json(&json!({}))
        .send()
        .await
        .unwrap_or_else(|error| panic!("{}: {error}", operation.name()));
    Answer::read(response, operation.streams()).await
}

/// A server whose sign-in throttle stays out of the way, so a walk that calls the sign-in
/// routes many times reaches their handlers.
pub async fn unthrottled_server() -> TestServer {
    TestServer::start_with(|config| config.auth_burst = 1_000_000).await
}
