//! Integration tests of `carepath serve`: each test starts the real server on a free
//! loopback port over a temporary database and speaks HTTP to it.

mod account;
mod api;
mod auth;
mod email;
mod events;
mod first_run;
mod handoff;
mod health;
mod hostile;
mod inbound;
mod logo;
mod notifications;
mod office;
mod offline;
mod openapi;
mod passkeys;
mod pipeline;
mod queue;
mod reminders;
mod replication;
mod second_factor;
mod secrets;
mod security;
mod sessions;
mod signing;
mod sms_ai;
mod support;
mod visits;
mod walk;
mod web;
mod writes;
