//! Carepath's terminal UI: the dashboard, the four lists, the intake form and the client
//! view over the same SQLite file the server uses. It has no SQL of its own: every read
//! and write is a core operation, recorded in the audit log with channel "tui".
//!
//! The shape is the Elm one: one [`App`] state, an [`Action`] enum, [`update`] as the
//! only place that changes state, and views that only draw.

pub mod action;
pub mod app;
pub mod form;
pub mod keymap;
mod load;
pub mod terminal;
pub mod theme;
pub mod update;
pub mod views;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use carepath_core::store::Store;
use crossterm::event::{self, Event, KeyEventKind};

pub use action::Action;
pub use app::App;
pub use update::{handle_key, update};

/// How often the idle loop wakes: toasts expire and outside writes are noticed.
const TICK: Duration = Duration::from_millis(250);

/// When set, the time from start to the first drawn frame is written to this file.
pub const TIMING_ENV: &str = "CAREPATH_TUI_TIMING";

/// Runs the TUI on `db`, acting as `as_email` (else the first admin), until quit.
pub fn run(db: &Path, as_email: Option<&str>) -> anyhow::Result<()> {
    let started = Instant::now();
    let store = Store::open(db).with_context(|| format!("cannot open {}", db.display()))?;
    let mut app = App::new(store, as_email, theme::Theme::from_env())?;
    let mut guard = terminal::TerminalGuard::enter().context("cannot set up the terminal")?;
    guard
        .terminal
        .draw(|frame| views::render(frame, &app))
        .context("cannot draw")?;
    write_timing(started);

    let mut last_tick = Instant::now();
    while !app.quit {
        if event::poll(TICK).context("cannot read the terminal")? {
            match event::read().context("cannot read the terminal")? {
                Event::Key(key) if key.kind != KeyEventKind::Release => handle_key(&mut app, key),
                // A resize only needs the redraw below.
                _ => {}
            }
        }
        if last_tick.elapsed() >= TICK {
            last_tick = Instant::now();
            update(&mut app, Action::Tick);
        }
        guard
            .terminal
            .draw(|frame| views::render(frame, &app))
            .context("cannot draw")?;
    }
    Ok(())
}

/// For the cold-start benchmark: milliseconds from start to first frame, and the wall
/// clock of that frame (so a script can also measure from before the process started).
fn write_timing(started: Instant) {
    let Some(path) = std::env::var_os(TIMING_ENV) else {
        return;
    };
    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    if let Ok(mut file) = std::fs::File::create(path) {
        let _ = writeln!(
            file,
            "first_frame_ms={elapsed:.1}\nfirst_frame_epoch_ms={wall}"
        );
    }
}
