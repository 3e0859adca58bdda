//! JSON downloads written to the socket as they are made, never held whole.
//!
//! Why: a 10-card run's JSON lists its 10! orders, 207 MB; built in memory per download
//! it cost that much for each (four at once took the server past a gigabyte). The writer
//! here hands the document to the connection 64 KiB at a time through a channel of a few
//! pieces, so a download holds about a quarter of a megabyte whatever its size, and a
//! client that goes away ends the writing at its next piece.

use std::io::Write;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

/// Pieces written ahead of the connection.
const PIECES_AHEAD: usize = 4;
/// The size of a piece.
const PIECE: usize = 64 << 10;

/// A download of the JSON `write` writes, named `file_name`, written on a blocking thread
/// as the client reads it.
pub fn json_download(
    file_name: &str,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static,
) -> Response {
    let (pieces, received) = mpsc::channel::<std::io::Result<Bytes>>(PIECES_AHEAD);
    tokio::task::spawn_blocking(move || {
        let mut out = std::io::BufWriter::with_capacity(PIECE, Pieces(pieces.clone()));
        if let Err(error) = write(&mut out).and_then(|()| out.flush()) {
            // The client sees the download cut short (the status was sent already).
            let _ = pieces.blocking_send(Err(error));
        }
    });
    let body = futures_util::stream::unfold(received, |mut received| async move {
        received.recv().await.map(|piece| (piece, received))
    });
    (
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", safe_file_name(file_name)),
            ),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// `file_name` with every character but letters, digits, `-`, `_` and `.` made `_`.
fn safe_file_name(file_name: &str) -> String {
    file_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes into the channel to the connection, a piece at a time (waiting while it is
/// full); fails once the connection is gone.
struct Pieces(mpsc::Sender<std::io::Result<Bytes>>);

impl Write for Pieces {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .blocking_send(Ok(Bytes::copy_from_slice(bytes)))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away"))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
