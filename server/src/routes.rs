//! One registration for each API route: it adds the handler to the router and its
//! operation (from `#[utoipa::path]`) to the OpenAPI document, so no route can be served
//! undocumented, and tests can walk the document to reach every route.

use axum::Router;
use axum::handler::Handler;
use axum::routing::{MethodFilter, on};
use utoipa::openapi::RefOr;
use utoipa::openapi::path::{HttpMethod, Paths};
use utoipa::openapi::schema::Schema;

use crate::AppState;

/// The schemas the registered operations use, by name.
pub type Schemas = Vec<(String, RefOr<Schema>)>;

pub struct ApiRoutes {
    router: Router<AppState>,
    paths: Paths,
    schemas: Schemas,
}

impl Default for ApiRoutes {
    fn default() -> Self {
        Self {
            router: Router::new(),
            paths: Paths::new(),
            schemas: Vec::new(),
        }
    }
}

fn filter(method: &HttpMethod) -> MethodFilter {
    match method {
        HttpMethod::Get => MethodFilter::GET,
        HttpMethod::Post => MethodFilter::POST,
        HttpMethod::Put => MethodFilter::PUT,
        HttpMethod::Delete => MethodFilter::DELETE,
        HttpMethod::Patch => MethodFilter::PATCH,
        HttpMethod::Head => MethodFilter::HEAD,
        HttpMethod::Options => MethodFilter::OPTIONS,
        HttpMethod::Trace => MethodFilter::TRACE,
    }
}

impl ApiRoutes {
    /// Serves `handler` at the path and methods its `#[utoipa::path]` names (`P` is the
    /// `__path_<handler>` type the attribute generates).
    pub fn add<P, H, T>(mut self, handler: H) -> Self
    where
        P: utoipa::Path + utoipa::__dev::SchemaReferences,
        H: Handler<T, AppState>,
        T: 'static,
    {
        let path = P::path();
        let methods = P::methods();
        let method_filter = methods
            .iter()
            .map(filter)
            .reduce(MethodFilter::or)
            .unwrap_or(MethodFilter::GET);
        self.router = self.router.route(&path, on(method_filter, handler));
        self.paths
            .add_path_operation(&path, methods, P::operation());
        P::schemas(&mut self.schemas);
        self
    }

    pub fn into_parts(self) -> (Router<AppState>, Paths, Schemas) {
        (self.router, self.paths, self.schemas)
    }
}
