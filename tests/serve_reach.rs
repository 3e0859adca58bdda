//! `serve` on a shared machine, reach: who can drive the server. Another site cannot (a
//! request marked `Sec-Fetch-Site: cross-site` or `same-site` is refused on every route,
//! and ids are 128 random bits, so none can be guessed); on `--bind 0.0.0.0` the machine's
//! own addresses, its loopback names and `--allow-host` names can, and no other name; and
//! every answer, refusals included, carries the page's safety headers. Each through the
//! real binary, over its socket.

mod served;

use served::Server;

/// Every route the server has, with a body where it takes one, for `run` and `session`.
fn routes(run: &str, session: &str) -> Vec<(&'static str, String, Vec<u8>)> {
    let request = br#"{"algorithm":"fisher-yates","n":"3","trials":"1000"}"#.to_vec();
    let deals = b"A B C\nB C A\n".to_vec();
    vec![
        ("GET", "/".to_string(), Vec::new()),
        ("GET", "/app.js".to_string(), Vec::new()),
        ("GET", "/worker.js".to_string(), Vec::new()),
        ("GET", "/app.css".to_string(), Vec::new()),
        ("GET", "/api/catalogue".to_string(), Vec::new()),
        ("POST", "/api/runs".to_string(), request),
        ("GET", format!("/api/runs/{run}/events"), Vec::new()),
        ("POST", format!("/api/runs/{run}/stop"), Vec::new()),
        (
            "POST",
            format!("/api/runs/{run}/speed"),
            br#"{"speed":"full"}"#.to_vec(),
        ),
        ("GET", format!("/api/runs/{run}/json"), Vec::new()),
        ("POST", "/api/ingest".to_string(), deals.clone()),
        ("POST", "/api/ingest/json".to_string(), deals.clone()),
        ("POST", "/api/own".to_string(), Vec::new()),
        ("POST", format!("/api/own/{session}/deals"), deals),
        ("GET", format!("/api/own/{session}/json"), Vec::new()),
        ("GET", "/no-such-page".to_string(), Vec::new()),
    ]
}

/// A request another site's page makes (an `<img>` pointed at a run's events, a form, a
/// fetch from a neighbouring name) is refused on every route, with the one-line message
/// and the safety headers, and does nothing: the run it named goes on. The same requests
/// from the page itself (`same-origin`) or typed in the address bar (`none`) are served.
#[test]
fn requests_from_other_sites_are_refused_on_every_route() {
    let server = Server::start(&[]);
    let run = server.start_run(r#"{"algorithm":"fisher-yates","n":"52","trials":"1e12","seed":"1"}"#);
    let session = server.post("/api/own", b"").json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    for site in ["cross-site", "same-site", "Cross-Site"] {
        for (method, path, body) in routes(&run, &session) {
            let answer = server.send(method, &path, &[("Sec-Fetch-Site", site)], &body);
            assert_eq!(answer.status, 403, "{site} {method} {path}");
            assert!(answer.error().contains("another site"), "{}", answer.error());
            answer.assert_safety_headers();
        }
    }
    // The refused stream did not stop the run (a dropped stream of the page's would).
    let mut events = server.events(&run);
    assert_eq!(events.next_update().unwrap().json()["phase"], "running");
    for site in ["same-origin", "none"] {
        let answer = server.send("GET", "/api/catalogue", &[("Sec-Fetch-Site", site)], b"");
        assert_eq!(answer.status, 200, "{site}");
    }
    assert_eq!(server.post(&format!("/api/runs/{run}/stop"), b"").status, 204);
}

/// Run and session ids are 128 random bits in hex: 32 digits, all different, none a
/// count; a guessed one is not found.
#[test]
fn run_and_session_ids_are_unguessable() {
    let server = Server::start(&[]);
    let mut ids = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let id = server.start_run(r#"{"algorithm":"fisher-yates","n":"3","trials":"1000"}"#);
        assert!(
            id.len() == 32 && id.bytes().all(|byte| byte.is_ascii_hexdigit()),
            "{id}"
        );
        // To its end, so that the next may start (at most four run at once).
        server.events(&id).rest();
        ids.insert(id);
        let session = server.post("/api/own", b"").json()["id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(session.len(), 32, "{session}");
        ids.insert(session);
    }
    assert_eq!(ids.len(), 40, "no id given twice");
    for guess in ["1", "2", "0", "00000000000000000000000000000001"] {
        assert_eq!(
            server.get(&format!("/api/runs/{guess}/json")).status,
            404,
            "{guess}"
        );
        assert_eq!(
            server.post(&format!("/api/runs/{guess}/stop"), b"").status,
            404,
            "{guess}"
        );
        assert_eq!(
            server.get(&format!("/api/own/{guess}/json")).status,
            404,
            "{guess}"
        );
    }
}

/// This machine's addresses other than loopback, from `hostname -I` when there is one.
fn own_addresses() -> Vec<String> {
    std::process::Command::new("hostname")
        .arg("-I")
        .output()
        .ok()
        .map(|output| {
            String::from_utf8_lossy(&output.stdout)
                .split_whitespace()
                .filter(|address| address.parse::<std::net::Ipv4Addr>().is_ok())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// On `--bind 0.0.0.0` the page answers to the loopback names, the bound address, this
/// machine's own addresses (reached at those addresses too) and `--allow-host` names, with
/// the port; to no other name (a rebinding page's); and says so at start.
#[test]
fn bound_to_every_interface_it_answers_to_its_own_names() {
    let server = Server::start(&["--bind", "0.0.0.0", "--allow-host", "classroom.example"]);
    let port = server.port;
    assert!(
        server.address.starts_with("127.0.0.1:"),
        "a loopback address printed: {}",
        server.address
    );
    let mut hosts: Vec<String> = [
        "127.0.0.1",
        "localhost",
        "[::1]",
        "0.0.0.0",
        "classroom.example",
        "CLASSROOM.example",
    ]
    .iter()
    .map(|name| format!("{name}:{port}"))
    .collect();
    let own = own_addresses();
    hosts.extend(own.iter().map(|address| format!("{address}:{port}")));
    for host in &hosts {
        let answer = server.send_as(host, "GET", "/api/catalogue", &[], b"");
        assert_eq!(answer.status, 200, "Host {host}: {}", answer.text());
    }
    // Reached at the machine's own address, as another machine of the class would.
    for address in &own {
        let mut stream = std::net::TcpStream::connect((address.as_str(), port)).unwrap();
        let host = format!("{address}:{port}");
        served::write_request(&mut stream, &host, "GET", "/", &[], b"");
        assert_eq!(served::read_answer(&mut stream).status, 200, "{host}");
    }
    for host in [
        format!("rebound.example:{port}"),
        format!("classroom.example:{}", port.wrapping_add(1)),
        "classroom.example".to_string(),
        format!("127.0.0.2:{port}"),
        String::new(),
    ] {
        let answer = server.send_as(&host, "GET", "/", &[], b"");
        assert_eq!(answer.status, 403, "Host {host:?}");
        answer.assert_safety_headers();
    }
    // A page of the allowed name may send requests (its Origin is one of the server's).
    let origin = format!("http://classroom.example:{port}");
    let answer = server.send_as(
        &format!("classroom.example:{port}"),
        "POST",
        "/api/own",
        &[("Origin", &origin), ("Sec-Fetch-Site", "same-origin")],
        b"",
    );
    assert_eq!(answer.status, 201, "{}", answer.text());
}

/// A `--allow-host` value that no `Host` header could carry is refused at start, in one
/// line, with exit status 2.
#[test]
fn a_bad_allowed_host_is_refused_at_start() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
        .args(["serve", "--allow-host", "class room/evil"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--allow-host") && stderr.contains("not a host name"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
}

/// Every refusal (403, 404, 400, 413, 405) carries the same safety headers as the page.
#[test]
fn refusals_carry_the_pages_safety_headers() {
    let server = Server::start(&[]);
    let refusals = [
        (403, server.send_as("evil.example", "GET", "/", &[], b"")),
        (404, server.get("/api/runs/nope/json")),
        (404, server.get("/nothing-here")),
        (400, server.post("/api/runs", b"not json")),
        (400, server.post("/api/ingest", b"A B C\nA B\n")),
        (413, server.post("/api/ingest", &vec![b'1'; (64 << 20) + 1])),
        (405, server.send("PUT", "/api/runs", &[], b"")),
    ];
    for (status, answer) in refusals {
        assert_eq!(answer.status, status, "{}", answer.text());
        answer.assert_safety_headers();
    }
    let page = server.get("/");
    assert_eq!(page.status, 200);
    page.assert_safety_headers();
}
