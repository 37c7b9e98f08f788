//! One registration for each API route: it adds the handler to the router and its
//! operation (from `#[utoipa::path]`) to the OpenAPI document, so no route can be served
//! undocumented, and tests can walk the document to reach every route. An operation whose
//! handler takes the `AdminUser` extractor is marked `x-admin-only` there, so the list of
//! admin-only routes the authorization tests check is the one the handlers enforce.

use axum::Router;
use axum::handler::Handler;
use axum::routing::{MethodFilter, on};
use utoipa::openapi::RefOr;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{HttpMethod, Paths};
use utoipa::openapi::schema::Schema;

use crate::AppState;
use crate::session::AdminUser;

/// The OpenAPI extension that marks an operation only administrators may call.
pub const ADMIN_ONLY: &str = "x-admin-only";

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
        let mut operation = P::operation();
        if takes_admin_user::<T>() {
            let marker = ExtensionsBuilder::new().add(ADMIN_ONLY, true).build();
            match operation.extensions.as_mut() {
                Some(extensions) => extensions.merge(marker),
                None => operation.extensions = Some(marker),
            }
        }
        self.paths.add_path_operation(&path, methods, operation);
        P::schemas(&mut self.schemas);
        self
    }

    pub fn into_parts(self) -> (Router<AppState>, Paths, Schemas) {
        (self.router, self.paths, self.schemas)
    }
}

/// Whether a handler's extractors (`T`, the tuple axum's `Handler` is implemented for)
/// include [`AdminUser`]. Rust has no way to ask a tuple of types whether it holds one
/// without a trait on every extractor, so this reads the tuple's type name, which names
/// each extractor by its path; the tests below pin that reading, and the authorization
/// tests check every marked route answers staff 403 and every unmarked one does not.
fn takes_admin_user<T: 'static>() -> bool {
    std::any::type_name::<T>().contains(std::any::type_name::<AdminUser>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::CurrentUser;

    struct NotAdminUser;

    #[test]
    fn an_admin_user_extractor_among_a_handlers_arguments_is_recognised() {
        assert!(takes_admin_user::<((), AdminUser)>());
        assert!(takes_admin_user::<(
            (),
            axum::extract::State<AppState>,
            AdminUser,
            String
        )>());
        assert!(!takes_admin_user::<((), CurrentUser)>());
        assert!(!takes_admin_user::<(
            (),
            axum::extract::State<AppState>,
            String
        )>());
        assert!(!takes_admin_user::<((), NotAdminUser)>());
    }
}
