//! The OpenAPI document, served to signed-in users (the web UI's types are generated from
//! the committed copy in web/openapi.json).

use axum::http::header;
use axum::response::IntoResponse;

use crate::error::ErrorBody;
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes.add::<__path_openapi_json, _, _>(openapi_json)
}

/// This API's OpenAPI document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "docs",
    responses((status = 200, description = "The OpenAPI document", content_type = "application/json"), (status = 401, body = ErrorBody)))]
pub async fn openapi_json(_user: CurrentUser) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::openapi_json(),
    )
}
