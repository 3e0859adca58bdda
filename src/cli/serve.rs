//! `shuffle-audit serve`: the live page on this machine. Binds the loopback address on a
//! free port unless told otherwise, prints the address, optionally opens a browser, and
//! serves until a signal ends the process ([`super::signals`]: Ctrl-C, SIGTERM; the runs
//! die with it, and they write no file). Which `Host` names it answers to, and how
//! connections are bounded, is the library's ([`shuffle_audit::serve::hosts`],
//! [`shuffle_audit::serve::listen`]).

use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use clap::Args;

use shuffle_audit::serve::hosts::check_allowed_host;
use shuffle_audit::serve::{Served, hosts_for, listen, router};
use shuffle_audit::{Error, Result};

use super::flags::default_threads;

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (default: a free one, printed).
    #[arg(long, value_name = "N", default_value = "0")]
    port: u16,
    /// The address to listen on (default 127.0.0.1). Any other than a loopback address
    /// lets other machines drive the server: it must be asked for here, and a warning says
    /// so. On 0.0.0.0 the page answers to this machine's own addresses and loopback names.
    #[arg(long, value_name = "ADDR")]
    bind: Option<IpAddr>,
    /// Another name the page may be reached by (a classroom machine's host name; NAME:PORT
    /// behind a proxy), besides its addresses. Repeatable.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Worker threads per run (default: all cores).
    #[arg(long, short = 'j', value_name = "J")]
    threads: Option<usize>,
}

/// Serves until the process is stopped.
pub fn execute(args: ServeArgs) -> Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(default_threads);
    shuffle_audit::simulate::check_thread_count(threads)?;
    for name in &args.allow_host {
        check_allowed_host(name).map_err(|problem| Error::BadOption {
            option: "--allow-host",
            problem,
        })?;
    }
    let ip = args.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| Error::Usage(format!("could not start the server: {error}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(ip, args.port))
            .await
            .map_err(|error| Error::BadOption {
                option: "--port",
                problem: format!("cannot listen on {}: {error}", SocketAddr::new(ip, args.port)),
            })?;
        let address = listener
            .local_addr()
            .map_err(|error| Error::Usage(format!("could not read the address: {error}")))?;
        if !ip.is_loopback() {
            say!(
                "shuffle-audit: warning: listening on {address}, not a loopback address: other machines can reach \
                 this server and start runs on it"
            );
        }
        let hosts = hosts_for(address, &args.allow_host);
        let url = format!("http://{}/", hosts[0]);
        // Standard output, for a script to read the address; a closed one is no reason to fail.
        let _ = writeln!(
            std::io::stdout(),
            "shuffle-audit: serving the live page at {url} (Ctrl-C stops it)"
        );
        if args.open {
            open_browser(&url);
        }
        if !ip.is_loopback() {
            say!("shuffle-audit: the page answers to {}", hosts.join(", "));
        }
        let served = Served::new(hosts, threads);
        listen::serve(listener, router(served)).await;
        Ok(ExitCode::SUCCESS)
    })
}

/// Opens `url` with the desktop's opener; a failure is said, not fatal.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(error) = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        say!("shuffle-audit: could not open a browser ({opener}: {error}); open {url}");
    }
}
