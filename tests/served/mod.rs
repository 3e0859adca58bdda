//! `serve` as a process, spoken to over its socket: what the tests of a shared machine's
//! promises need (the real binary, real connections, the process's own CPU time and
//! memory from /proc), without a client library (one request per connection, HTTP/1.1
//! as a browser writes it).
#![allow(
    dead_code,
    reason = "each test file compiles this module and uses only some of it"
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// A running `serve`, killed when dropped.
pub struct Server {
    pub child: Child,
    /// Where it is connected to (`127.0.0.1:PORT`).
    pub address: String,
    pub port: u16,
}

impl Server {
    /// `serve --threads 2` with `args` after, once it has printed its address.
    pub fn start(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
            .args(["serve", "--threads", "2"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let port = address.rsplit(':').next().unwrap().parse().unwrap();
        Self { child, address, port }
    }

    /// The process's CPU time so far (user + system), from /proc.
    pub fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        // SAFETY: sysconf only reads a configuration value.
        ticks / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64
    }

    /// A line of /proc/PID/status, in MB (`VmRSS`, `VmHWM`).
    pub fn memory_mb(&self, field: &str) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|line| line.starts_with(field)).unwrap();
        line.split_whitespace().nth(1).unwrap().parse::<f64>().unwrap() / 1024.0
    }

    /// Starts measuring the peak memory (`VmHWM`) afresh from now (Linux's clear_refs).
    pub fn reset_peak_memory(&self) {
        std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5").unwrap();
    }

    /// The process's open file descriptors.
    pub fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .unwrap()
            .count()
    }

    /// A connection to the server.
    pub fn connect(&self) -> TcpStream {
        TcpStream::connect(&self.address).unwrap()
    }

    /// Sends `method path` with `Host` this server's address, `headers` and `body`, and
    /// reads the whole answer.
    pub fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Answer {
        self.send_as(&self.address, method, path, headers, body)
    }

    /// As [`Server::send`], with `host` in `Host`.
    pub fn send_as(
        &self,
        host: &str,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Answer {
        let mut stream = self.connect();
        write_request(&mut stream, host, method, path, headers, body);
        read_answer(&mut stream)
    }

    pub fn get(&self, path: &str) -> Answer {
        self.send("GET", path, &[], b"")
    }

    pub fn post(&self, path: &str, body: &[u8]) -> Answer {
        self.send("POST", path, &[], body)
    }

    /// Starts a run from its JSON request and returns its id.
    pub fn start_run(&self, request: &str) -> String {
        let answer = self.post("/api/runs", request.as_bytes());
        assert_eq!(answer.status, 201, "{}", answer.text());
        answer.json()["id"].as_str().unwrap().to_string()
    }

    /// Opens a run's event stream: the events as they come.
    pub fn events(&self, id: &str) -> Events {
        let mut stream = self.connect();
        write_request(
            &mut stream,
            &self.address,
            "GET",
            &format!("/api/runs/{id}/events"),
            &[],
            b"",
        );
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
        }
        Events { reader }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes one request, closing the connection after it.
pub fn write_request(
    stream: &mut TcpStream,
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer (413, 503) and close before reading a large body.
    let _ = stream.write_all(body);
}

/// An answer: its status, headers (names in lower case) and body (de-chunked).
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|error| panic!("{error}: {}", self.text()))
    }

    /// The one-line message of a refusal.
    pub fn error(&self) -> String {
        let message = self.json()["error"]
            .as_str()
            .expect("an error message")
            .to_string();
        assert!(!message.contains('\n'), "one line: {message}");
        message
    }

    /// The headers every answer carries, refusals too.
    pub fn assert_safety_headers(&self) {
        assert_eq!(
            self.header("x-content-type-options"),
            Some("nosniff"),
            "status {}",
            self.status
        );
        assert_eq!(
            self.header("x-frame-options"),
            Some("DENY"),
            "status {}",
            self.status
        );
        assert_eq!(
            self.header("referrer-policy"),
            Some("no-referrer"),
            "status {}",
            self.status
        );
    }
}

/// Reads an answer to its end (the connection closes after it).
pub fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse_answer(&raw)
}

fn parse_answer(raw: &[u8]) -> Answer {
    let end = raw
        .windows(4)
        .position(|window| window == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(name, value)| name == "transfer-encoding" && value.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = raw.windows(2).position(|window| window == b"\r\n") else {
            return body;
        };
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..line_end]).trim(), 16).unwrap_or(0);
        if size == 0 || raw.len() < line_end + 2 + size {
            return body;
        }
        body.extend_from_slice(&raw[line_end + 2..line_end + 2 + size]);
        raw = &raw[(line_end + 4 + size).min(raw.len())..];
    }
}

/// A run's event stream, read as it comes (the chunk sizes and keep-alive comments are
/// passed over).
pub struct Events {
    reader: BufReader<TcpStream>,
}

/// One server-sent event.
#[derive(Debug)]
pub struct Event {
    pub name: String,
    pub data: String,
    /// When it was read.
    pub at: Instant,
}

impl Event {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap_or_else(|error| panic!("{error}: {}", self.data))
    }
}

impl Events {
    /// The next event, or `None` when the stream ends.
    pub fn next(&mut self) -> Option<Event> {
        let (mut name, mut data) = (String::new(), None);
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if let Some(value) = line.strip_prefix("event: ") {
                name = value.to_string();
            } else if let Some(value) = line.strip_prefix("data: ") {
                data = Some(value.to_string());
            } else if line.is_empty() {
                if let Some(data) = data.take() {
                    return Some(Event {
                        name,
                        data,
                        at: Instant::now(),
                    });
                }
            }
        }
    }

    /// The next `snapshot` event (updates), skipping others; `None` when the stream ends.
    pub fn next_update(&mut self) -> Option<Event> {
        loop {
            let event = self.next()?;
            if event.name == "snapshot" {
                return Some(event);
            }
        }
    }

    /// Every remaining event.
    pub fn rest(&mut self) -> Vec<Event> {
        std::iter::from_fn(|| self.next()).collect()
    }

    /// Closes the connection (as a closed tab does).
    pub fn close(self) {
        let _ = self.reader.get_ref().shutdown(std::net::Shutdown::Both);
    }
}

/// Waits until `done` holds, polling every 5 ms, for at most `limit`; the time it took.
pub fn time_until(limit: Duration, mut done: impl FnMut() -> bool) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}
