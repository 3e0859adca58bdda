//! Deals sent by the page a batch at a time ("your own shuffle"): each deal crosses the
//! network once, and the server keeps them, in order, for the session.
//!
//! Why keep the text and not only a tally: `ingest` also tests each deal against the one
//! before it (their relative permutation), which a tally of each batch alone would miss
//! at every batch boundary. The deals of a session are read again, all of them, by
//! [`crate::ingest`] at each batch, so what the page shows and downloads is exactly what
//! `ingest` says of the same file; reading them is cheap next to dealing them in a browser.
//! A session holds at most [`super::MAX_BODY`] of deals, like one upload.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Sessions kept at once; starting another forgets the oldest.
pub const KEPT_SESSIONS: usize = 8;

/// One page's deals so far, and how they are to be read (`ingest`'s flags).
pub struct Session {
    pub query: super::routes::IngestQuery,
    pub deals: Mutex<Vec<u8>>,
}

/// Every session the server holds.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<BTreeMap<u64, Arc<Session>>>,
    next_id: AtomicU64,
}

impl Sessions {
    /// A new, empty session whose deals are read with `query`.
    pub fn start(&self, query: super::routes::IngestQuery) -> u64 {
        let mut sessions = self.sessions.lock().unwrap_or_else(|poison| poison.into_inner());
        while sessions.len() >= KEPT_SESSIONS {
            let oldest = *sessions.keys().next().expect("not empty");
            sessions.remove(&oldest);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        sessions.insert(
            id,
            Arc::new(Session {
                query,
                deals: Mutex::default(),
            }),
        );
        id
    }

    /// The session numbered `id`.
    pub fn get(&self, id: u64) -> Option<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .get(&id)
            .cloned()
    }
}

impl Session {
    /// Adds `batch` to the deals and returns all of them, or `None` (nothing added) when
    /// they would exceed `limit` bytes.
    pub fn append(&self, batch: &[u8], limit: usize) -> Option<Vec<u8>> {
        let mut deals = self.deals.lock().unwrap_or_else(|poison| poison.into_inner());
        if deals.len() + batch.len() > limit {
            return None;
        }
        deals.extend_from_slice(batch);
        Some(deals.clone())
    }

    /// Every deal so far.
    pub fn all(&self) -> Vec<u8> {
        self.deals
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }
}
