//! The JSON API under `/api`: one module per resource, each with its `routes()`. Handlers
//! parse, call core on the blocking pool and answer; rules and messages are core's.

pub mod account;
pub mod ai;
pub mod assessments;
pub mod auth;
pub mod care_plans;
pub mod clients;
pub mod communications;
pub mod contacts;
pub mod contracts;
pub mod dashboard;
pub mod docs;
pub mod exports;
pub mod health;
pub mod inbound;
pub mod intakes;
pub mod prints;
pub mod public;
pub mod queue;
pub mod replies;
pub mod settings;
pub mod setup;
pub mod signing;
pub mod templates;
pub mod users;
pub mod visits;

use serde::Serialize;
use utoipa::ToSchema;

use crate::events;
use crate::routes::ApiRoutes;

/// A list that is never paged.
#[derive(Debug, Serialize, ToSchema)]
pub struct Items<T> {
    pub items: Vec<T>,
}

impl<T> From<Vec<T>> for Items<T> {
    fn from(items: Vec<T>) -> Self {
        Self { items }
    }
}

/// Every API route, each registered with its OpenAPI operation.
pub fn routes() -> ApiRoutes {
    let routes = ApiRoutes::default();
    let routes = auth::routes(routes);
    let routes = account::routes(routes);
    let routes = dashboard::routes(routes);
    let routes = intakes::routes(routes);
    let routes = contacts::routes(routes);
    let routes = clients::routes(routes);
    let routes = assessments::routes(routes);
    let routes = care_plans::routes(routes);
    let routes = contracts::routes(routes);
    let routes = communications::routes(routes);
    let routes = ai::routes(routes);
    let routes = templates::routes(routes);
    let routes = settings::routes(routes);
    let routes = setup::routes(routes);
    let routes = users::routes(routes);
    let routes = docs::routes(routes);
    let routes = health::routes(routes);
    let routes = exports::routes(routes);
    let routes = prints::routes(routes);
    let routes = signing::routes(routes);
    let routes = public::routes(routes);
    let routes = replies::routes(routes);
    let routes = inbound::routes(routes);
    let routes = visits::routes(routes);
    let routes = queue::routes(routes);
    routes.add::<events::__path_stream, _, _>(events::stream)
}

/// The OpenAPI document: the routes' operations and every schema they use.
pub fn openapi() -> utoipa::openapi::OpenApi {
    use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
    use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApiBuilder};

    let (_, paths, schemas) = routes().into_parts();
    let mut components = ComponentsBuilder::new()
        .schemas_from_iter(schemas)
        .schemas_from_iter(carepath_core::model::options::openapi_schemas())
        .schemas_from_iter(carepath_core::rules::sms::openapi_schemas())
        .schemas_from_iter(carepath_core::rules::validation::attachment_openapi_schemas())
        // Enums only query parameters name: parameters refer to them, nothing registers them.
        .schema_from::<carepath_core::store::StageFilter>()
        .schema_from::<carepath_core::store::ClientSort>()
        .schema_from::<carepath_core::store::AssessmentFilter>()
        .schema_from::<carepath_core::rules::stage::Urgency>()
        .schema_from::<crate::error::ErrorBody>()
        .schema_from::<crate::error::ErrorDetail>()
        .build();
    components.add_security_scheme(
        "session",
        SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(crate::session::COOKIE))),
    );
    let mut doc = OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("Carepath API")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "The JSON API of `carepath serve`. Every route needs the session cookie except \
                     the sign-in routes, the health check, the setup page (`/api/setup`), the SMS provider's reply webhook (signed by the provider) and the family's link pages under \
                     `/api/public`. Errors answer `ErrorBody`.",
                ))
                .build(),
        )
        .paths(paths)
        .components(Some(components))
        .build();
    // Every operation needs the session cookie, except the sign-in routes and the health check.
    doc.security = Some(vec![SecurityRequirement::new(
        "session",
        Vec::<String>::new(),
    )]);
    for path in auth::PUBLIC_PATHS {
        if let Some(operation) = doc
            .paths
            .paths
            .get_mut(*path)
            .and_then(|item| item.post.as_mut())
        {
            operation.security = Some(vec![SecurityRequirement::default()]);
        }
    }
    // The family's link pages: every method of them is open.
    for path in public::PUBLIC_PATHS {
        if let Some(item) = doc.paths.paths.get_mut(*path) {
            for operation in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                operation.security = Some(vec![SecurityRequirement::default()]);
            }
        }
    }
    // A member of staff's calendar feed: its secret address is the authorization.
    if let Some(operation) = doc
        .paths
        .paths
        .get_mut(visits::FEED_PATH)
        .and_then(|item| item.get.as_mut())
    {
        operation.security = Some(vec![SecurityRequirement::default()]);
    }
    // The SMS provider's webhook: signed by the provider, not by a session.
    if let Some(operation) = doc
        .paths
        .paths
        .get_mut(replies::PATH)
        .and_then(|item| item.post.as_mut())
    {
        operation.security = Some(vec![SecurityRequirement::default()]);
    }
    // The setup page: its secret link is the authorization, and only until setup is done.
    if let Some(item) = doc.paths.paths.get_mut(setup::PATH) {
        for operation in [item.get.as_mut(), item.post.as_mut()]
            .into_iter()
            .flatten()
        {
            operation.security = Some(vec![SecurityRequirement::default()]);
        }
    }
    if let Some(operation) = doc
        .paths
        .paths
        .get_mut(health::PATH)
        .and_then(|item| item.get.as_mut())
    {
        operation.security = Some(vec![SecurityRequirement::default()]);
    }
    doc
}
