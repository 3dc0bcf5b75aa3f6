//! What the tests of the `bir` binary share: running it with the tests' cache of compiled
//! checkers, `bir explore`'s server as a child process, and a minimal HTTP/1.1 client over
//! a TCP stream (enough for the server's API and for a WebDriver).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A model of the repository's `models/`.
pub fn model(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../models")
        .join(name)
        .display()
        .to_string()
}

/// The cache of compiled checkers shared by the tests: `XDG_CACHE_HOME=CARGO_TARGET_TMPDIR/
/// xdg-cache`, as `tests/compiled.rs` and `tests/cli.rs` set it, makes `xdg-cache/bir`.
pub const TEST_CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-cache/bir");

/// `bir` as every test runs it: its compiled checkers go to the tests' cache
/// ([`TEST_CACHE`]) and are built unoptimised (`BIR_CACHE_PROFILE=dev`: a model builds in
/// seconds, not dozens of seconds; these tests check what the checker says, and the
/// release build is what `bir-tests`' release target and `scripts/compare` run).
pub fn bir_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bir"));
    command
        .env(
            "XDG_CACHE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/xdg-cache"),
        )
        .env("BIR_CACHE_PROFILE", "dev");
    command
}

/// Runs `bir` ([`bir_command`]) with `args` and the environment `envs`; returns (exit
/// status, stdout, stderr).
pub fn run_bir(args: &[&str], envs: &[(&str, &str)]) -> (i32, String, String) {
    let mut command = bir_command();
    command.args(args);
    for (name, value) in envs {
        command.env(name, value);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = command.output().expect("the binary runs");
    (
        status.code().expect("an exit status, not a signal"),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// `bir explore` on a free port, stopped when dropped.
pub struct Explorer {
    child: Child,
    /// `http://127.0.0.1:PORT`, without the last `/`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Explorer {
    /// Starts the server on `model` and waits for the address it prints. Its checks run on
    /// the interpreter (`--interpret`): nothing is compiled.
    pub fn start(model: &str) -> Explorer {
        Explorer::start_with(model, &[])
    }

    /// [`Explorer::start`] with more arguments (`--set`...).
    pub fn start_with(model: &str, more: &[&str]) -> Explorer {
        let mut args = vec!["--interpret"];
        args.extend_from_slice(more);
        Explorer::launch(model, &args)
    }

    /// Starts the server on `model` with more arguments; its checks run on the compiled
    /// checker once it is built into the tests' cache (the one `tests/compiled.rs` and
    /// `tests/cli.rs` use, so that each model compiles once for all of them).
    pub fn compiled(model: &str, more: &[&str]) -> Explorer {
        let mut args = vec!["--cache", TEST_CACHE];
        args.extend_from_slice(more);
        Explorer::launch(model, &args)
    }

    fn launch(model: &str, more: &[&str]) -> Explorer {
        let mut child = bir_command()
            .args(["explore", model, "--port", "0"])
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("bir explore starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("a first line");
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .trim_end_matches('/')
            .to_string();
        let address = url.trim_start_matches("http://").to_string();
        Explorer {
            child,
            url,
            address,
        }
    }
}

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Polls the check view until the engine of the next check is the compiled checker.
pub fn wait_for_compiled(address: &str) {
    let started = Instant::now();
    loop {
        let engine = json(address, "GET", "/api/check", None).json()["engine"].clone();
        if engine == "compiled" {
            return;
        }
        assert_eq!(engine, "building", "the compiled checker is unavailable");
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the compiled checker was not built within 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A response: status, headers (lowercase names) and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Sends one request to `address` (`host:port`) with these extra headers and body.
pub fn request(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Reply {
    let mut stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {address}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("write");
    if let Some(body) = body {
        // The server may answer (413) and close before reading all of a large body.
        let _ = stream.write_all(body);
    }
    parse_reply(&read_reply(&mut stream))
}

/// The bytes of one response: up to the end of its body as its headers give it (a server
/// may keep the connection open), or to the end of the stream.
fn read_reply(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buffer = [0u8; 16384];
    loop {
        if let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let body = &raw[split + 4..];
            match length {
                Some(length) if body.len() >= length => return raw,
                None if head.contains("chunked") && body.ends_with(b"0\r\n\r\n") => return raw,
                _ => {}
            }
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return raw,
            Ok(n) => raw.extend_from_slice(&buffer[..n]),
        }
    }
}

/// A JSON request as a page of the server would send it.
pub fn json(address: &str, method: &str, path: &str, body: Option<serde_json::Value>) -> Reply {
    let text = body.map(|b| b.to_string());
    let mut headers = vec![];
    if text.is_some() {
        headers.push(("Content-Type", "application/json"));
    }
    request(
        address,
        method,
        path,
        &headers,
        text.as_deref().map(str::as_bytes),
    )
}

fn parse_reply(raw: &[u8]) -> Reply {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Reply {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&data[..end])
                .split(';')
                .next()
                .unwrap_or("0")
                .trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
}
