//! What a request must satisfy before the API looks at it: a `Host` that cannot come from
//! DNS rebinding, an `Origin` (when there is one) that is this server, and a body that is
//! JSON of at most [`MAX_BODY`] bytes.

use std::io::Read;
use std::net::IpAddr;

/// The largest request body read (a replay string of about 100,000 steps fits).
pub const MAX_BODY: usize = 1 << 20;

/// A refusal: the status and the message.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status, 4xx.
    pub status: u16,
    /// What was wrong.
    pub message: String,
}

impl Refusal {
    /// A refusal with this status.
    pub fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
}

/// Checks the `Host` and `Origin` headers of a request to the server on `port`.
pub fn check_headers(host: Option<&str>, origin: Option<&str>, port: u16) -> Result<(), Refusal> {
    let Some(host) = host else {
        return Err(Refusal::new(400, "the request has no Host header"));
    };
    if !host_allowed(host, port) {
        return Err(Refusal::new(
            403,
            format!(
                "Host `{host}` is refused: this server answers requests to 127.0.0.1:{port}, \
                 localhost:{port} or another IP address of this machine, never to a DNS name \
                 (a page elsewhere could rebind its name to this machine)"
            ),
        ));
    }
    if let Some(origin) = origin {
        if origin != format!("http://{host}") {
            return Err(Refusal::new(
                403,
                format!(
                    "Origin `{origin}` is refused: only pages of http://{host} may use this server"
                ),
            ));
        }
    }
    Ok(())
}

/// An IP address or `localhost`, with this port (or without one for port 80).
fn host_allowed(host: &str, port: u16) -> bool {
    let (name, given_port) = match host.rsplit_once(':') {
        // `[::1]:8470`, or `127.0.0.1:8470`; a bare IPv6 address has more than one colon.
        Some((name, p)) if !name.contains(':') || name.ends_with(']') => (name, Some(p)),
        _ => (host, None),
    };
    let port_ok = match given_port {
        Some(p) => p.parse::<u16>() == Ok(port),
        None => port == 80,
    };
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    port_ok && (bare.eq_ignore_ascii_case("localhost") || bare.parse::<IpAddr>().is_ok())
}

/// The body of a POST request: JSON, at most [`MAX_BODY`] bytes.
pub fn read_body(
    content_type: Option<&str>,
    length: Option<usize>,
    body: impl Read,
) -> Result<serde_json::Value, Refusal> {
    if !content_type.is_some_and(|t| {
        t.trim()
            .to_ascii_lowercase()
            .starts_with("application/json")
    }) {
        return Err(Refusal::new(
            415,
            "the body must be JSON (Content-Type: application/json)",
        ));
    }
    let too_large = || Refusal::new(413, format!("the body is larger than {MAX_BODY} bytes"));
    if length.is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    body.take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refusal::new(400, format!("cannot read the body: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_large());
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(serde_json::Value::Object(serde_json::Map::new()));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| Refusal::new(400, format!("the body is not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_addresses_or_localhost_on_this_port() {
        for host in [
            "127.0.0.1:8470",
            "localhost:8470",
            "[::1]:8470",
            "LOCALHOST:8470",
            "10.0.0.5:8470",
        ] {
            assert!(host_allowed(host, 8470), "{host}");
        }
        for host in [
            "evil.example:8470",
            "127.0.0.1:8471",
            "127.0.0.1",
            "localhost.evil:8470",
            "::1",
            "",
        ] {
            assert!(!host_allowed(host, 8470), "{host}");
        }
        assert!(host_allowed("127.0.0.1", 80));
    }

    #[test]
    fn origins_must_be_this_server() {
        assert_eq!(check_headers(Some("127.0.0.1:9"), None, 9), Ok(()));
        assert_eq!(
            check_headers(Some("127.0.0.1:9"), Some("http://127.0.0.1:9"), 9),
            Ok(())
        );
        for origin in [
            "http://evil.example",
            "null",
            "http://127.0.0.1:8",
            "https://127.0.0.1:9",
        ] {
            assert_eq!(
                check_headers(Some("127.0.0.1:9"), Some(origin), 9)
                    .unwrap_err()
                    .status,
                403
            );
        }
        assert_eq!(
            check_headers(Some("evil.example:9"), None, 9)
                .unwrap_err()
                .status,
            403
        );
        assert_eq!(check_headers(None, None, 9).unwrap_err().status, 400);
    }

    #[test]
    fn bodies_are_json_and_small() {
        let json = Some("application/json");
        assert_eq!(read_body(json, None, &b"{\"a\":1}"[..]).unwrap()["a"], 1);
        assert_eq!(
            read_body(json, None, &b""[..]).unwrap(),
            serde_json::json!({})
        );
        assert_eq!(
            read_body(Some("text/plain"), None, &b"{}"[..])
                .unwrap_err()
                .status,
            415
        );
        assert_eq!(read_body(None, None, &b"{}"[..]).unwrap_err().status, 415);
        assert_eq!(read_body(json, None, &b"{"[..]).unwrap_err().status, 400);
        assert_eq!(
            read_body(json, Some(MAX_BODY + 1), &b"{}"[..])
                .unwrap_err()
                .status,
            413
        );
        let mut endless = std::io::repeat(b' ');
        assert_eq!(read_body(json, None, &mut endless).unwrap_err().status, 413);
    }
}
