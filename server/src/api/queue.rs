//! A coordinator's queue ("Today"), its snooze and Mark Done, a client's tasks and owner,
//! and marking a client's replies read.

use axum::extract::State;
use axum::http::StatusCode;
use carepath_core::model::{
    IntakeId, OwnerInput, Queue, QueueDoneInput, SnoozeInput, Task, TaskId, TaskInput, UserId,
};
use carepath_core::rules::queue::queue_limit;
use carepath_core::store::ClientProfile;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Items;
use crate::AppState;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{ApiJson, ApiPath, ApiQuery};
use crate::routes::ApiRoutes;
use crate::session::CurrentUser;

pub fn routes(routes: ApiRoutes) -> ApiRoutes {
    routes
        .add::<__path_queue, _, _>(queue)
        .add::<__path_snooze, _, _>(snooze)
        .add::<__path_done, _, _>(done)
        .add::<__path_tasks, _, _>(tasks)
        .add::<__path_add_task, _, _>(add_task)
        .add::<__path_complete_task, _, _>(complete_task)
        .add::<__path_set_owner, _, _>(set_owner)
        .add::<__path_read_replies, _, _>(read_replies)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QueueQuery {
    /// Whose queue; the signed-in user's when absent.
    pub user_id: Option<UserId>,
    /// How many of the most late rows to show: 25 when absent, at most 200.
    pub limit: Option<u32>,
}

/// A member of staff's queue for today, most late first: follow-ups due, today's visits,
/// unread replies, proposals and contracts waiting, stage alerts and due tasks.
#[utoipa::path(get, path = "/api/queue", tag = "queue", params(QueueQuery),
    responses((status = 200, body = Queue), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn queue(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiQuery(query): ApiQuery<QueueQuery>,
) -> ApiResult<ApiJson<Queue>> {
    let owner = query.user_id.unwrap_or(user.user.id);
    let limit = queue_limit(query.limit);
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.queue(&owner, limit))
            .await?,
    ))
}

/// Puts a queue row off to a later day with a reason (a follow-up or task moves to it).
#[utoipa::path(post, path = "/api/queue/snooze", tag = "queue", request_body = SnoozeInput,
    responses((status = 204, description = "Snoozed"), (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub async fn snooze(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<SnoozeInput>,
) -> ApiResult<StatusCode> {
    let actor = user.actor();
    state
        .db
        .call(move |store| store.snooze_queue_row(&actor, &input))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Marks a queue row done: a follow-up cleared, a task completed, a visit held, replies read.
#[utoipa::path(post, path = "/api/queue/done", tag = "queue", request_body = QueueDoneInput,
    responses((status = 204, description = "Done"), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn done(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiJson(input): ApiJson<QueueDoneInput>,
) -> ApiResult<StatusCode> {
    let actor = user.actor();
    state
        .db
        .call(move |store| store.mark_queue_row_done(&actor, &input))
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A client's tasks: open ones by day, then the done ones.
#[utoipa::path(get, path = "/api/clients/{id}/tasks", tag = "queue", params(("id" = String, Path)),
    responses((status = 200, body = Items<Task>), (status = 401, body = ErrorBody)))]
pub async fn tasks(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<Items<Task>>> {
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.client_tasks(&id))
            .await?
            .into(),
    ))
}

/// Adds a dated task on a client for a member of staff (the one adding it by default).
#[utoipa::path(post, path = "/api/clients/{id}/tasks", tag = "queue", params(("id" = String, Path)),
    request_body = TaskInput,
    responses((status = 200, body = Task), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn add_task(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(input): ApiJson<TaskInput>,
) -> ApiResult<ApiJson<Task>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| store.add_task(&actor, &id, &input))
            .await?,
    ))
}

/// Marks a task done.
#[utoipa::path(post, path = "/api/tasks/{id}/done", tag = "queue", params(("id" = String, Path)),
    responses((status = 200, body = Task), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn complete_task(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<TaskId>,
) -> ApiResult<ApiJson<Task>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.mark_queue_row_done(
                    &actor,
                    &QueueDoneInput {
                        kind: Some(carepath_core::model::QueueKind::Task),
                        id: id.to_string(),
                    },
                )?;
                store.task(&id)
            })
            .await?,
    ))
}

/// Gives a client to another member of staff (or to nobody); answers the profile.
#[utoipa::path(put, path = "/api/clients/{id}/owner", tag = "queue", params(("id" = String, Path)),
    request_body = OwnerInput,
    responses((status = 200, body = ClientProfile), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn set_owner(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
    ApiJson(input): ApiJson<OwnerInput>,
) -> ApiResult<ApiJson<ClientProfile>> {
    let actor = user.actor();
    Ok(ApiJson(
        state
            .db
            .call(move |store| {
                store.set_client_owner(&actor, &id, &input)?;
                store.client_profile(&id)
            })
            .await?,
    ))
}

/// How many replies a read marked.
#[derive(Serialize, ToSchema)]
pub struct RepliesRead {
    pub read: usize,
}

/// Marks a client's unread replies read: the client's communications were opened.
#[utoipa::path(post, path = "/api/clients/{id}/replies/read", tag = "queue", params(("id" = String, Path)),
    responses((status = 200, body = RepliesRead), (status = 404, body = ErrorBody)))]
pub async fn read_replies(
    State(state): State<AppState>,
    user: CurrentUser,
    ApiPath(id): ApiPath<IntakeId>,
) -> ApiResult<ApiJson<RepliesRead>> {
    let actor = user.actor();
    let read = state
        .db
        .call(move |store| store.mark_replies_read(&actor, &id))
        .await?;
    Ok(ApiJson(RepliesRead { read }))
}
