//! Measures start-to-first-served-request of the real binary with a config declaring 100
//! queues (50 dead-letter queues and 50 sources wired to them).
//!
//! Run with `cargo build --release && cargo run --release --example startup`
//! (optional arguments: path to the binary, number of runs).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn config_with_100_queues() -> String {
    use std::fmt::Write;
    let mut text = String::from("[server]\nhost = \"127.0.0.1\"\n");
    for i in 0..50 {
        let _ = write!(
            text,
            "\n[[queues]]\nname = \"source-{i}\"\nVisibilityTimeout = 45\n\
             dead_letter_queue = \"dlq-{i}\"\nmax_receive_count = 3\n\
             \n[[queues]]\nname = \"dlq-{i}\"\nMessageRetentionPeriod = 1209600\n"
        );
    }
    text
}

/// Polls until `/health` answers 200; a refused connection just means "not yet".
fn first_health(port: u16) -> Instant {
    loop {
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
            let request = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            let mut response = String::new();
            if stream.write_all(request.as_bytes()).is_ok()
                && stream.read_to_string(&mut response).is_ok()
                && response.starts_with("HTTP/1.1 200")
            {
                return Instant::now();
            }
        }
        std::thread::yield_now();
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let binary = args
        .next()
        .unwrap_or_else(|| "target/release/sqslite".into());
    let runs: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let path = std::env::temp_dir().join(format!("sqslite-startup-{}.toml", std::process::id()));
    std::fs::write(&path, config_with_100_queues()).expect("write config");
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let start = Instant::now();
        let mut child = Command::new(&binary)
            .args([
                "--config",
                path.to_str().unwrap(),
                "--port",
                &port.to_string(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start sqslite");
        times.push(first_health(port) - start);
        child.kill().ok();
        child.wait().ok();
    }
    std::fs::remove_file(&path).ok();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "100 declared queues, {runs} runs: median {:.1} ms, min {:.1} ms, max {:.1} ms",
        ms(times[runs / 2]),
        ms(times[0]),
        ms(times[runs - 1])
    );
}
