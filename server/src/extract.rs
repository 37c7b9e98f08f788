//! Extractors whose rejections speak the API's error body: malformed JSON, unknown
//! fields, wrong types and bad query strings are 400, a missing JSON content type is 415
//! and an oversized body 413; never a bare text answer, never a 500.

use axum::body::Bytes;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use std::net::{IpAddr, SocketAddr};

use axum::extract::connect_info::ConnectInfo;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::cell::Cell;

use serde::Serialize;
use serde::de::DeserializeOwned;

use carepath_core::store::SessionOrigin;

use crate::AppState;
use crate::error::ApiError;

/// A JSON body typed per operation (`deny_unknown_fields`), or a JSON answer.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(Self(value)),
            Err(rejection) => Err(json_rejection(rejection)),
        }
    }
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        ANSWER.with(|cell| {
            // Taken, not borrowed: a Serialize impl that answered a request itself could
            // not reenter a held borrow.
            let mut buffer = cell.take();
            buffer.clear();
            let written = serde_json::to_writer(&mut buffer, &self.0);
            let body = Bytes::copy_from_slice(&buffer);
            if buffer.capacity() <= KEPT_ANSWER_BYTES {
                cell.replace(buffer);
            }
            match written {
                Ok(()) => ([(CONTENT_TYPE, "application/json")], body).into_response(),
                Err(error) => ApiError::internal(error).into_response(),
            }
        })
    }
}

/// The largest answer buffer a worker thread keeps for the next answer. Writing a page
/// of clients into a fresh buffer grows it a dozen times, copying as it goes; a kept
/// buffer is written once and copied once, to an allocation of the answer's size.
const KEPT_ANSWER_BYTES: usize = 1 << 20;

thread_local! {
    static ANSWER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the request body as JSON (Content-Type: application/json).",
        ),
        JsonRejection::JsonDataError(error) => ApiError::bad_request(format!(
            "The request body does not fit this operation: {}",
            error
                .body_text()
                .trim_start_matches("Failed to deserialize the JSON body into the target type: ")
        )),
        JsonRejection::JsonSyntaxError(_) => {
            ApiError::bad_request("The request body is not valid JSON.")
        }
        JsonRejection::BytesRejection(error) if error.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                "The request body is too large (at most 1 MB).",
            )
        }
        JsonRejection::BytesRejection(error)
            if error.body_text().contains(crate::middleware::BODY_TOO_SLOW) =>
        {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "too_slow",
                "The request body did not arrive in time. Please try again.",
            )
        }
        other => ApiError::bad_request(other.body_text()),
    }
}

/// Path parameters; a malformed one is 400.
pub struct ApiPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Path(value)| Self(value))
            .map_err(|rejection: PathRejection| ApiError::bad_request(rejection.body_text()))
    }
}

/// Query string parameters; an unknown filter value is 400.
pub struct ApiQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(value)| Self(value))
            .map_err(|rejection: QueryRejection| ApiError::bad_request(rejection.body_text()))
    }
}

/// A PDF answer, shown in the browser (`inline`) or saved (`attachment`).
pub fn pdf_response(pdf: Vec<u8>, file_name: &str, disposition: &str) -> Response {
    let value = HeaderValue::from_str(&format!("{disposition}; filename=\"{file_name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("inline"));
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (header::CONTENT_DISPOSITION, value),
        ],
        pdf,
    )
        .into_response()
}

/// The client's address, when the server knows it (it does when serving for real).
pub struct ClientAddr(pub Option<IpAddr>);

impl ClientAddr {
    /// The address as text, for counting failed sign-ins per place.
    pub fn key(&self) -> String {
        self.0
            .map(|address| address.to_string())
            .unwrap_or_default()
    }
}

impl ClientAddr {
    pub fn ip(&self) -> Option<IpAddr> {
        self.0
    }
}

/// The address a trusted reverse proxy put last in `X-Forwarded-For` (the one it saw).
fn forwarded_for(parts: &Parts) -> Option<IpAddr> {
    parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .next_back()
        .and_then(|address| address.trim().parse().ok())
}

impl FromRequestParts<AppState> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip());
        // Behind a proxy every request comes from the proxy; only then is the header
        // believed (anyone else could write it).
        let client = if state.config.trust_proxy {
            forwarded_for(parts).or(peer)
        } else {
            peer
        };
        Ok(Self(client))
    }
}

/// Where a new session is opened from: the browser's User-Agent and the client address,
/// for the user's list of their sessions.
pub struct Device(pub SessionOrigin);

impl FromRequestParts<AppState> for Device {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let Ok(ClientAddr(address)) = ClientAddr::from_request_parts(parts, state).await;
        Ok(Self(SessionOrigin {
            user_agent,
            address: address.map(|a| a.to_string()).unwrap_or_default(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body_of(response: Response) -> String {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    /// The kept buffer is reused: a short answer after a long one carries nothing of it,
    /// and an answer past the kept size is whole too.
    #[tokio::test(flavor = "current_thread")]
    async fn each_answer_is_exactly_its_own_json_whatever_came_before() {
        let long = "x".repeat(KEPT_ANSWER_BYTES + 10);
        for value in [
            serde_json::json!({ "name": "a".repeat(5_000) }),
            serde_json::json!({ "n": 1 }),
            serde_json::json!([long]),
            serde_json::json!("short"),
        ] {
            let response = ApiJson(&value).into_response();
            assert_eq!(response.status(), StatusCode::OK);
            assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
            assert_eq!(body_of(response).await, value.to_string());
        }
    }

    /// What cannot be written as JSON is the API's 500, and the next answer is whole.
    #[tokio::test(flavor = "current_thread")]
    async fn an_answer_that_cannot_be_json_is_a_500_and_the_next_is_whole() {
        let keyed_by_pairs = std::collections::BTreeMap::from([((1u8, 2u8), 3u8)]);
        let response = ApiJson(&keyed_by_pairs).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert!(body_of(response).await.contains("\"internal\""));
        let next = ApiJson(serde_json::json!({ "ok": true })).into_response();
        assert_eq!(body_of(next).await, r#"{"ok":true}"#);
    }
}
