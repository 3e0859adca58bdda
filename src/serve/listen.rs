//! Accepting connections: at most [`MAX_CONNECTIONS`] open at once, and a request's
//! headers read within [`HEADER_TIMEOUT`] or the connection closed.
//!
//! Why not `axum::serve`: it sets no timer on hyper's connections, so a client that sends
//! half a request and waits holds its connection (and a task) for as long as it likes,
//! and 300 such clients were held for as long as they stayed. hyper's own HTTP/1 builder
//! takes a timer; with it, a request whose headers are not all there after
//! [`HEADER_TIMEOUT`] (and an idle kept-alive connection, which is waiting for headers
//! too) is closed. Connections past [`MAX_CONNECTIONS`] wait in the operating system's
//! queue until one closes, rather than each taking memory here.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Connections served at once (a classroom's pages hold two or three each).
pub const MAX_CONNECTIONS: usize = 256;

/// The time a client has to send a request's headers, and an idle connection to send the
/// next request's.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `router` on `listener` until the process ends.
pub async fn serve(mut listener: TcpListener, router: Router) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        // Errors (too many open files, a connection reset before it was accepted) are
        // waited out by axum's listener, as `axum::serve` does.
        let (stream, _) = axum::serve::Listener::accept(&mut listener).await;
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            // An error here is the client's (a bad request, a timeout, a reset): the
            // connection is closed either way.
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(slot);
        });
    }
}
