//! The visit reminders' scheduler: inside `carepath serve`, a task that wakes every
//! `reminder_interval`, asks core which reminders are due (core claims them in the
//! database before they are sent, so a restart, a second server or `carepath remind`
//! beside it never sends one twice), sends them through the mail and SMS adapters and
//! reports each outcome back. It stops with the server.

use std::sync::{Arc, Mutex};

use carepath_core::outbound::{SendFailure, SmsMessage};
use carepath_core::store::{INVITATION_OUT_OF_DATE, ReminderMessage, Store};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::config::Config;
use crate::outbound::Outbound;

/// What one round did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RemindersSent {
    pub sent: usize,
    pub failed: usize,
}

/// The scheduler's own connection: a round's reads and claims never wait for the
/// request pool, and a pinned clock (tests) stays on it.
pub struct ReminderStore(Arc<Mutex<Store>>);

impl ReminderStore {
    pub fn open(config: &Config) -> anyhow::Result<Self> {
        let mut store = Store::open(&config.db_path)?;
        store.set_now(config.reminder_clock);
        Ok(Self(Arc::new(Mutex::new(store))))
    }

    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> carepath_core::Result<T> + Send + 'static,
    ) -> anyhow::Result<T> {
        let store = self.0.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let mut store = store
                .lock()
                .map_err(|_| anyhow::anyhow!("the reminders' connection was poisoned"))?;
            f(&mut store).map_err(anyhow::Error::from)
        })
        .await??;
        Ok(answer)
    }
}

/// One round: claims what is due, sends it, records how each send went.
pub async fn send_due(store: &ReminderStore, outbound: &Outbound) -> anyhow::Result<RemindersSent> {
    let from = outbound.mail_from.clone();
    let (claimed, sms_settings) = store
        .call(move |store| {
            let claimed = store.claim_due_reminders(&from)?;
            Ok((claimed, store.settings()?.sms))
        })
        .await?;
    let mut round = RemindersSent::default();
    for reminder in claimed {
        let outcome = match &reminder.message {
            ReminderMessage::Email(email) => outbound
                .email
                .send(email)
                .await
                .map(|sent| sent.id)
                .map_err(|failure| failure.reason),
            ReminderMessage::Sms { to, body } => {
                let message = SmsMessage {
                    from: outbound.sms_sender(&sms_settings),
                    to: to.clone(),
                    body: body.clone(),
                };
                outbound
                    .sms
                    .send(&message)
                    .await
                    .map(|sent| sent.sid)
                    .map_err(|failure| failure.reason)
            }
        };
        match &outcome {
            Ok(_) => round.sent += 1,
            Err(reason) => {
                round.failed += 1;
                tracing::warn!(%reason, "a visit reminder was not sent");
            }
        }
        let id = reminder.id;
        store
            .call(move |store| store.finish_reminder(&id, outcome))
            .await?;
    }
    resend_failed_invitations(store, outbound, &mut round).await?;
    Ok(round)
}

/// Calendar invitations whose send failed go again (a few times, for a day), each with
/// its calendar; one whose visit changed since is left failed with that reason.
async fn resend_failed_invitations(
    store: &ReminderStore,
    outbound: &Outbound,
    round: &mut RemindersSent,
) -> anyhow::Result<()> {
    let from = outbound.mail_from.clone();
    let taken = store
        .call(move |store| {
            let mut taken = Vec::new();
            for communication in store.claim_failed_invitations()? {
                let email = store.invitation_to_resend(&communication, &from)?;
                taken.push((communication.id, email));
            }
            Ok(taken)
        })
        .await?;
    for (id, email) in taken {
        let outcome = match email {
            Some(Ok(email)) => outbound.email.send(&email).await,
            Some(Err(reason)) => Err(SendFailure::new(reason)),
            None => continue,
        };
        match &outcome {
            Ok(_) => round.sent += 1,
            // An invitation a newer one replaced is no failure of this round.
            Err(failure) if failure.reason == INVITATION_OUT_OF_DATE => {}
            Err(_) => round.failed += 1,
        }
        store
            .call(move |store| store.finish_email_send(&id, outcome).map(|_| ()))
            .await?;
    }
    Ok(())
}

/// Starts the scheduler: a round at once, then one every `reminder_interval`, until
/// `shutdown` turns true (a round under way is finished first). None when the interval
/// is zero.
pub fn start(
    config: &Config,
    outbound: Outbound,
    mut shutdown: watch::Receiver<bool>,
) -> anyhow::Result<Option<JoinHandle<()>>> {
    if config.reminder_interval.is_zero() {
        return Ok(None);
    }
    let store = ReminderStore::open(config)?;
    let interval = config.reminder_interval;
    Ok(Some(tokio::spawn(async move {
        loop {
            if *shutdown.borrow() {
                break;
            }
            match send_due(&store, &outbound).await {
                Ok(round) if round.sent + round.failed > 0 => {
                    tracing::info!(sent = round.sent, failed = round.failed, "visit reminders");
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "the visit reminders' round failed"),
            }
            tokio::select! {
                () = tokio::time::sleep(interval) => {}
                changed = shutdown.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
            }
        }
    })))
}
