//! `sqslite-bench s3`: S3's figures, for sqslite or for the S3 server a user would pick
//! instead (`--against URL`: moto's or LocalStack's, which `scripts/bench-s3` starts as a user
//! would): PUT and GET of 1 KiB objects back to back on N connections (req/s), then one
//! multipart upload in 5 MiB parts over 4 connections and its download (MB/s). Requests are
//! unsigned and path-style, which each of these servers takes without credentials, so the
//! figures compare the servers, not signing.

use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::Request;

use crate::load::{self, Body, Conn};
use crate::process::Server;
use crate::scenarios::{self, Row};

/// S3's smallest part but the last.
const PART: usize = 5 << 20;
/// The bucket every figure uses.
const BUCKET: &str = "sqslite-bench";

/// What `sqslite-bench s3` measures.
#[derive(Debug, Clone, clap::Args)]
pub struct Options {
    /// An S3 endpoint to measure instead of a sqslite this command starts.
    #[arg(long)]
    against: Option<String>,
    /// How the rows name the server measured.
    #[arg(long, default_value = "sqslite")]
    name: String,
    /// Seconds per request-rate figure.
    #[arg(long, default_value_t = 5)]
    seconds: u64,
    /// Connections for the 1 KiB PUTs and GETs.
    #[arg(long, default_value_t = 16)]
    connections: usize,
    /// Size of the multipart object, in MiB (a multiple of 5 is uploaded in whole parts).
    #[arg(long, default_value_t = 100)]
    object_mib: usize,
}

/// An unsigned request. Objects are written public-read: moto answers an unsigned GET of a
/// private object 403 (sqslite accepts and ignores the header).
fn request(host: &str, method: &str, path: &str, body: Bytes) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(path)
        .header("host", host)
        .header("x-amz-acl", "public-read")
        .header("content-length", body.len())
        .body(Full::new(body))
        .unwrap_or_default()
}

/// The server's address from an endpoint URL (`http://127.0.0.1:4566`).
async fn address(url: &str) -> std::io::Result<SocketAddr> {
    let authority = url
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap_or_default();
    tokio::net::lookup_host(authority)
        .await?
        .next()
        .ok_or_else(|| std::io::Error::other(format!("{url}: no address")))
}

/// Measures the server at `--against`, or a sqslite started for it.
pub async fn run(options: Options) {
    let started = match &options.against {
        Some(_) => None,
        None => Some(crate::sqslite().await),
    };
    let addr = match (&started, &options.against) {
        (Some(server), _) => server.addr,
        (None, Some(url)) => match address(url).await {
            Ok(addr) => addr,
            Err(e) => return eprintln!("sqslite-bench s3: {e}"),
        },
        (None, None) => unreachable!("one of the two is set"),
    };
    let mut rows = Vec::new();
    if let Err(e) = measure(addr, &options, &mut rows, started.as_ref()).await {
        eprintln!("sqslite-bench s3: {e}");
    }
    crate::print_table(&rows);
    if let Some(server) = started {
        server.stop().await;
    }
}

async fn measure(
    addr: SocketAddr,
    options: &Options,
    rows: &mut Vec<Row>,
    server: Option<&Server>,
) -> Result<(), String> {
    let host = addr.to_string();
    let create = request(&host, "PUT", &format!("/{BUCKET}"), Bytes::new());
    let (status, _) = once(addr).await?.send(create).await;
    if status != 200 && status != 409 {
        return Err(format!("CreateBucket answered {status}"));
    }
    let secs = Duration::from_secs(options.seconds);
    let conns = options.connections;
    let object = Bytes::from(vec![b'x'; 1024]);
    let at = host.clone();
    let mut puts = load::run(addr, conns, secs, move |c, i| {
        request(
            &at,
            "PUT",
            &format!("/{BUCKET}/small/{c}/{i}"),
            object.clone(),
        )
    })
    .await;
    let name = &options.name;
    emit(
        rows,
        Row::rate("S3 PutObject 1 KiB", name, conns, &mut puts, "req/s", 1.0),
    );
    // GETs read back keys the PUTs wrote: the first 100 of each connection.
    let at = host.clone();
    let mut gets = load::run(addr, conns, secs, move |c, i| {
        let key = format!("/{BUCKET}/small/{c}/{}", i % 100);
        request(&at, "GET", &key, Bytes::new())
    })
    .await;
    emit(
        rows,
        Row::rate("S3 GetObject 1 KiB", name, conns, &mut gets, "req/s", 1.0),
    );
    multipart(addr, options, rows).await?;
    if let Some(mib) = server.and_then(Server::rss_mib) {
        emit(
            rows,
            figure(("S3 server RSS after the figures", name), mib, "MiB", 0),
        );
    }
    Ok(())
}

fn emit(rows: &mut Vec<Row>, row: Row) {
    println!("{}", serde_json::to_string(&row).unwrap_or_default());
    rows.push(row);
}

/// A figure of the server `name`d, on `connections`.
fn figure(
    (scenario, name): (&str, &str),
    value: f64,
    unit: &'static str,
    connections: usize,
) -> Row {
    let mut row = Row::figure(scenario, value, unit);
    name.clone_into(&mut row.server);
    row.connections = connections;
    row
}

/// The text of the first `<tag>` element of an XML answer.
fn element(xml: &[u8], tag: &str) -> Option<String> {
    scenarios::extract(&String::from_utf8_lossy(xml), tag)
        .into_iter()
        .next()
}

/// One multipart upload of `--object-mib` in 5 MiB parts over 4 connections, then its
/// download: MB/s each way (1 MB = 10^6 bytes, as disks and networks count).
async fn multipart(addr: SocketAddr, options: &Options, rows: &mut Vec<Row>) -> Result<(), String> {
    let host = addr.to_string();
    let key = format!("/{BUCKET}/large");
    let size = options.object_mib << 20;
    let mb = size as f64 / 1e6;
    let started = Instant::now();
    let create = request(&host, "POST", &format!("{key}?uploads"), Bytes::new());
    let (_, answer) = once(addr).await?.send(create).await;
    let upload = element(&answer, "UploadId").ok_or("CreateMultipartUpload gave no UploadId")?;
    let etags = upload_parts(addr, (&key, &upload), size).await?;
    let mut listed = String::new();
    for (n, etag) in &etags {
        let _ = write!(
            listed,
            "<Part><PartNumber>{n}</PartNumber><ETag>{etag}</ETag></Part>"
        );
    }
    let body = format!("<CompleteMultipartUpload>{listed}</CompleteMultipartUpload>");
    let complete = request(
        &host,
        "POST",
        &format!("{key}?uploadId={upload}"),
        body.into(),
    );
    let (status, _) = once(addr).await?.send(complete).await;
    if status != 200 {
        return Err(format!("CompleteMultipartUpload answered {status}"));
    }
    let scenario = format!("S3 multipart upload {} MiB", options.object_mib);
    let rate = mb / started.elapsed().as_secs_f64();
    emit(rows, figure((&scenario, &options.name), rate, "MB/s", 4));
    let started = Instant::now();
    let get = request(&host, "GET", &key, Bytes::new());
    let (status, len) = once(addr).await?.drain(get).await;
    if status != 200 || len != size {
        return Err(format!(
            "GetObject answered {status} with {len} of {size} bytes"
        ));
    }
    let scenario = format!("S3 GetObject {} MiB", options.object_mib);
    let rate = mb / started.elapsed().as_secs_f64();
    emit(rows, figure((&scenario, &options.name), rate, "MB/s", 1));
    Ok(())
}

/// Uploads `size` bytes as 5 MiB parts on 4 connections at once: each part's number and ETag,
/// in order.
async fn upload_parts(
    addr: SocketAddr,
    (key, upload): (&str, &str),
    size: usize,
) -> Result<Vec<(usize, String)>, String> {
    let parts = size.div_ceil(PART);
    let part = Bytes::from(vec![b'p'; PART]);
    let mut tasks = Vec::new();
    for lane in 0..4 {
        let host = addr.to_string();
        let (key, upload, part) = (key.to_owned(), upload.to_owned(), part.clone());
        tasks.push(tokio::spawn(async move {
            let mut etags = Vec::new();
            for n in (1 + lane..=parts).step_by(4) {
                let len = PART.min(size - (n - 1) * PART);
                let path = format!("{key}?partNumber={n}&uploadId={upload}");
                let req = request(&host, "PUT", &path, part.slice(..len));
                let etag = send_for_etag(&mut once(addr).await?, req).await;
                etags.push((n, etag.map_err(|()| format!("UploadPart {n} failed"))?));
            }
            Ok::<_, String>(etags)
        }));
    }
    let mut etags = Vec::new();
    for task in tasks {
        etags.extend(task.await.map_err(|e| e.to_string())??);
    }
    etags.sort_unstable();
    Ok(etags)
}

/// A new connection for one request: moto closes each connection after one answer.
async fn once(addr: SocketAddr) -> Result<Conn, String> {
    Conn::open(addr).await.map_err(|e| e.to_string())
}

/// Sends an UploadPart and returns its ETag header.
async fn send_for_etag(conn: &mut Conn, req: Request<Body>) -> Result<String, ()> {
    let (status, headers) = conn.send_with_headers(req).await.ok_or(())?;
    let etag = headers.get("etag").and_then(|v| v.to_str().ok());
    etag.filter(|_| status == 200).map(str::to_owned).ok_or(())
}
