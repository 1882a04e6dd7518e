//! The client side of `/health`: `sqslite health` asks a running server whether it is ready,
//! so a container HEALTHCHECK needs no curl in the image.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Asks `host:port` for `/health`; `Ok` means the server answered 200 (queues declared).
pub fn probe(host: &str, port: u16, timeout: Duration) -> Result<(), String> {
    let addr = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("cannot resolve {host}"))?;
    let mut stream = TcpStream::connect_timeout(&addr, timeout)
        .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let request =
        format!("GET /health HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .map_err(|e| e.to_string())?;
    let mut response = String::new();
    stream
        .read_to_string(&mut response)
        .map_err(|e| e.to_string())?;
    let status = response.lines().next().unwrap_or_default();
    if status.split(' ').nth(1) == Some("200") {
        Ok(())
    } else {
        Err(format!("unhealthy: {status}"))
    }
}
