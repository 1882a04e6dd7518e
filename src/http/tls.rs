//! The TLS client of outbound requests (https SNS subscribers, `url` and `invoke_url`
//! functions, the alarm webhook): rustls through tokio-rustls, with ring as its crypto.
//! Servers are verified against the system's roots plus the operator's CA file
//! (`[outbound] ca_file`, for mkcert or a compose service's own CA); `insecure` (an explicit
//! opt-in, logged at start) accepts any certificate. The configuration is built on the first
//! https request, so a server that never makes one never reads the system's roots.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::crypto::{self, CryptoProvider};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{self, ClientConfig, DigitallySignedStruct, RootCertStore};

/// The certificates of a PEM file: the error names the file.
pub fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let pem = std::fs::read(path).map_err(|e| format!("ca_file {}: {e}", path.display()))?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("ca_file {}: {e}", path.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "ca_file {}: no PEM certificate in it",
            path.display()
        ));
    }
    Ok(certs)
}

/// How outbound TLS verifies the servers it connects to.
#[derive(Debug, Default)]
pub struct Tls {
    /// The operator's CA certificates, trusted besides the system's roots.
    extra: Vec<CertificateDer<'static>>,
    /// Accept any certificate.
    insecure: bool,
    config: OnceLock<Arc<ClientConfig>>,
}

impl Tls {
    /// Trusting the system's roots and `extra`; any certificate at all when `insecure`.
    pub fn new(extra: Vec<CertificateDer<'static>>, insecure: bool) -> Self {
        Tls {
            extra,
            insecure,
            config: OnceLock::new(),
        }
    }

    /// The client configuration, built on first use.
    pub fn config(&self) -> Arc<ClientConfig> {
        self.config.get_or_init(|| Arc::new(self.build())).clone()
    }

    fn build(&self) -> ClientConfig {
        let provider = Arc::new(crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .expect("ring supports the default protocol versions");
        if self.insecure {
            return builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
                .with_no_client_auth();
        }
        let mut roots = RootCertStore::empty();
        let system = rustls_native_certs::load_native_certs();
        for e in &system.errors {
            tracing::debug!("reading the system's certificates: {e}");
        }
        roots.add_parsable_certificates(system.certs);
        roots.add_parsable_certificates(self.extra.iter().cloned());
        builder.with_root_certificates(roots).with_no_client_auth()
    }
}

/// A server's name (or address) as TLS verifies it.
pub fn server_name(host: &str) -> Result<ServerName<'static>, String> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    ServerName::try_from(host.to_owned()).map_err(|e| format!("{host}: {e}"))
}

/// `insecure`: every certificate is taken, the handshake's signatures still checked (the
/// connection is encrypted, only not authenticated).
#[derive(Debug)]
struct AnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        crypto::verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        crypto::verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
