//! `carepath user`: staff accounts from the command line. Passwords come from a prompt
//! without echo or from standard input, never from an argument (arguments end up in
//! shell history and in the process list).

use std::io::{BufRead, IsTerminal};
use std::path::Path;

use anyhow::{Context, bail};
use carepath_core::model::{Actor, Channel, User};
use carepath_core::outbound::{AccountEmail, account_link};
use carepath_core::store::{NewUser, Store};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: UserCommand,
}

#[derive(clap::Subcommand)]
enum UserCommand {
    /// Add a staff user. The first administrator is made with --admin.
    #[command(
        after_help = "Example:\n  carepath user add ana@agency.example --name \"Ana Ruiz\" --admin"
    )]
    Add {
        /// The user's email address (their sign-in name).
        email: String,
        /// The user's full name as the team sees it.
        #[arg(long)]
        name: String,
        /// Make the user an administrator (deletes, restores, user management).
        #[arg(long)]
        admin: bool,
        /// Read the password from the first line of standard input instead of a prompt.
        #[arg(long)]
        password_stdin: bool,
        /// Create the account without a password (the user signs in by magic link or
        /// password recovery).
        #[arg(long, conflicts_with = "password_stdin")]
        no_password: bool,
    },
    /// List every user with their role and state.
    List,
    /// Allow an email address to sign up in the web app (sign-up is by invitation only).
    Invite {
        email: String,
        /// The invited user becomes an administrator on sign-up.
        #[arg(long)]
        admin: bool,
        /// The address people open (as given to `carepath serve --public-url`); the
        /// printed sign-up link starts with it.
        #[arg(
            long,
            env = "CAREPATH_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        public_url: String,
    },
    /// Set a user's password (ends their other sessions).
    SetPassword {
        email: String,
        /// Read the password from the first line of standard input instead of a prompt.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Make a user an administrator.
    GrantAdmin { email: String },
    /// Take the administrator role away (at least one administrator always remains).
    RevokeAdmin { email: String },
    /// Disable a user: they can no longer sign in and their sessions end.
    Disable { email: String },
    /// Re-enable a disabled user: they sign in again with the password they had.
    Enable { email: String },
    /// Remove a user's second factors (authenticator app and passkeys) and recovery codes
    /// (a lost phone or key; the way back in for an administrator locked out): they sign
    /// in with their password alone.
    ResetSecondFactor { email: String },
}

/// Changes made from the command line are the system's, through the cli channel.
fn actor() -> Actor {
    Actor::system(Channel::Cli)
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    let mut store = Store::open(db).with_context(|| format!("cannot open {}", db.display()))?;
    let actor = actor();
    match args.command {
        UserCommand::Add {
            email,
            name,
            admin,
            password_stdin,
            no_password,
        } => {
            let password = if no_password {
                None
            } else {
                Some(read_password(password_stdin)?)
            };
            let user = store.create_user(
                &actor,
                NewUser {
                    email,
                    full_name: name,
                    password,
                    is_admin: admin,
                },
            )?;
            println!("Added {}{}.", describe(&user), role(&user));
        }
        UserCommand::List => {
            let users = store.users()?;
            if users.is_empty() {
                println!(
                    "No users yet. Add the first administrator with: carepath user add EMAIL --name NAME --admin"
                );
            }
            for user in users {
                println!(
                    "{}\t{}\t{}\t{}",
                    user.email,
                    user.full_name,
                    if user.is_admin { "admin" } else { "staff" },
                    if user.disabled { "disabled" } else { "active" }
                );
            }
        }
        UserCommand::Invite {
            email,
            admin,
            public_url,
        } => {
            let token = store.invite(&actor, &email, admin)?;
            let link = account_link(&public_url, AccountEmail::Invitation, &token, &email);
            // Printed for the administrator to pass on: the link is the invitation's
            // secret, so it goes to the invited person alone.
            println!(
                "Invited {}{}. Send them this sign-up link (it works once, for 7 days):\n{link}",
                email.trim(),
                if admin { " as administrator" } else { "" }
            );
        }
        UserCommand::SetPassword {
            email,
            password_stdin,
        } => {
            let user = store.user_by_email(&email)?;
            let password = read_password(password_stdin)?;
            store.set_password(&actor, &user.id, &password, &password, None)?;
            println!("Password set for {}.", describe(&user));
        }
        UserCommand::GrantAdmin { email } => {
            let user = store.user_by_email(&email)?;
            let user = store.set_admin(&actor, &user.id, true)?;
            println!("{} is now an administrator.", describe(&user));
        }
        UserCommand::RevokeAdmin { email } => {
            let user = store.user_by_email(&email)?;
            let user = store.set_admin(&actor, &user.id, false)?;
            println!("{} is no longer an administrator.", describe(&user));
        }
        UserCommand::Disable { email } => {
            let user = store.user_by_email(&email)?;
            let user = store.disable_user(&actor, &user.id)?;
            println!("{} is disabled and signed out everywhere.", describe(&user));
        }
        UserCommand::Enable { email } => {
            let user = store.user_by_email(&email)?;
            let user = store.enable_user(&actor, &user.id)?;
            println!("{} can sign in again.", describe(&user));
        }
        UserCommand::ResetSecondFactor { email } => {
            let user = store.user_by_email(&email)?;
            let user = store.reset_second_factor(&actor, &user.id)?;
            println!(
                "{} signs in with their password alone until they set up a second factor again.",
                describe(&user)
            );
        }
    }
    Ok(())
}

fn describe(user: &User) -> String {
    format!("{} <{}>", user.full_name, user.email)
}

fn role(user: &User) -> &'static str {
    if user.is_admin {
        " as administrator"
    } else {
        ""
    }
}

/// The new password: one line of standard input, or typed twice at a prompt that does
/// not echo.
fn read_password(from_stdin: bool) -> anyhow::Result<String> {
    if from_stdin {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .context("cannot read the password from standard input")?;
        let password = line.trim_end_matches(['\n', '\r']).to_owned();
        if password.is_empty() {
            bail!("no password on standard input");
        }
        return Ok(password);
    }
    if !std::io::stdin().is_terminal() {
        bail!("no terminal to ask for the password: pipe it in with --password-stdin");
    }
    let password =
        rpassword::prompt_password("New password: ").context("cannot read the password")?;
    let again = rpassword::prompt_password("Repeat it: ").context("cannot read the password")?;
    if password != again {
        bail!(carepath_core::rules::validation::PASSWORDS_DIFFER);
    }
    Ok(password)
}
