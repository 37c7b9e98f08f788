//! `carepath serve`: the web app and its JSON API over one database file. Outbound
//! adapters are set up from the environment (see the README's "Serving the web app").

use std::net::SocketAddr;
use std::path::Path;

use anyhow::Context;
use carepath_server::{Config, PublicUrl};

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "CAREPATH_ADDR")]
    addr: SocketAddr,

    /// The address people open, e.g. https://care.example.org. Sign-in links and the
    /// Origin check use it; the session cookie is Secure when it is https. Default:
    /// http://<addr>.
    #[arg(long, env = "CAREPATH_PUBLIC_URL", value_name = "URL")]
    public_url: Option<String>,

    /// Print the API's OpenAPI document (JSON) and exit.
    #[arg(long)]
    print_openapi: bool,
}

pub fn run(db: &Path, args: Args) -> anyhow::Result<()> {
    if args.print_openapi {
        print!("{}", carepath_server::openapi_json());
        return Ok(());
    }
    let public_url = args
        .public_url
        .unwrap_or_else(|| format!("http://{}", args.addr));
    let public_url = PublicUrl::parse(&public_url).context("--public-url")?;
    let config = Config::new(args.addr, db.to_path_buf(), public_url).with_env();
    carepath_server::serve_blocking(config)
}
