//! Integration tests of `carepath serve`: each test starts the real server on a free
//! loopback port over a temporary database and speaks HTTP to it.

mod api;
mod auth;
mod email;
mod events;
mod health;
mod hostile;
mod logo;
mod notifications;
mod office;
mod openapi;
mod pipeline;
mod replication;
mod secrets;
mod security;
mod sessions;
mod signing;
mod sms_ai;
mod support;
mod visits;
mod walk;
