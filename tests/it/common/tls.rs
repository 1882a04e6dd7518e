//! An https endpoint with a certificate from a CA this test makes (rcgen): the CA's PEM is
//! written to a file, as an operator's `[outbound] ca_file` would be, and each request's path
//! and body are kept.

use std::sync::{Arc, Mutex};

use hyper::body::Incoming;
use hyper::{Request, Response};
use tokio::sync::Notify;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{self, ServerConfig};

/// A running https endpoint.
pub struct HttpsEndpoint {
    /// `https://localhost:<port>/`.
    pub url: String,
    /// The PEM file of the CA that signed its certificate.
    pub ca_file: std::path::PathBuf,
    received: Arc<Mutex<Vec<(String, String)>>>,
    arrived: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for HttpsEndpoint {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.ca_file);
    }
}

/// A CA, and a certificate it signed for `localhost` and 127.0.0.1.
fn certificates() -> (String, CertificateDer<'static>, PrivateKeyDer<'static>) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(rcgen::DnType::CommonName, "sqslite test CA");
    ca.key_usages.push(rcgen::KeyUsagePurpose::KeyCertSign);
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca, ca_key);
    let leaf_key = rcgen::KeyPair::generate().unwrap();
    let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
    let leaf = rcgen::CertificateParams::new(names).unwrap();
    let leaf = leaf.signed_by(&leaf_key, &issuer).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
    (ca_cert.pem(), leaf.der().clone(), key)
}

impl HttpsEndpoint {
    /// Serves https on an ephemeral loopback port, answering 200 with `reply`.
    pub async fn start(reply: &'static str) -> Self {
        let (ca_pem, cert, key) = certificates();
        let ca_file =
            std::env::temp_dir().join(format!("sqslite-test-ca-{}.pem", uuid::Uuid::new_v4()));
        std::fs::write(&ca_file, ca_pem).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![cert], key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let received: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
        let arrived = Arc::new(Notify::new());
        let (kept, told) = (Arc::clone(&received), Arc::clone(&arrived));
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                let (acceptor, kept, told) = (acceptor.clone(), kept.clone(), told.clone());
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else {
                        return;
                    };
                    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
                        let (kept, told) = (kept.clone(), told.clone());
                        async move {
                            let path = req.uri().path().to_owned();
                            let body = super::listener::body_bytes(req.into_body()).await;
                            let body = String::from_utf8_lossy(&body).into_owned();
                            kept.lock().unwrap().push((path, body));
                            told.notify_waiters();
                            Ok::<_, std::convert::Infallible>(Response::new(
                                http_body_util::Full::new(bytes::Bytes::from_static(
                                    reply.as_bytes(),
                                )),
                            ))
                        }
                    });
                    let io = hyper_util::rt::TokioIo::new(tls);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, service)
                        .await;
                });
            }
        });
        HttpsEndpoint {
            url: format!("https://localhost:{port}/"),
            ca_file,
            received,
            arrived,
            task,
        }
    }

    /// Waits (10 s of wall time at most) for `n` requests; their paths and bodies.
    pub async fn wait_for(&self, n: usize) -> Vec<(String, String)> {
        super::lambda::within("the https endpoint's requests", async {
            loop {
                let arrived = self.arrived.notified();
                let got = self.received.lock().unwrap().clone();
                if got.len() >= n {
                    return got;
                }
                arrived.await;
            }
        })
        .await
    }
}
