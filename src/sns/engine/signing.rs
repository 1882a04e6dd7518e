//! SNS message signatures made with sqslite's own RSA key: SignatureVersion 1 is
//! SHA1withRSA, 2 is SHA256withRSA (PKCS#1 v1.5), over SNS's canonical string (SNS guide,
//! "Verifying the signatures of Amazon SNS messages"). The certificate is served at
//! [`CERT_PATH`], so a validator pointed at it (and told to accept this host) verifies.
//!
//! The key is public on purpose: it is sqslite's, the same for every install, and proves
//! only that a message came from some sqslite, never from AWS. It was made once with
//! `openssl req -newkey rsa:2048` and self-signed for 2000-2100 (`openssl ca -selfsign`).

use std::sync::LazyLock;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use rsa::pkcs1v15::SigningKey;
use rsa::pkcs8::DecodePrivateKey;
use rsa::signature::{SignatureEncoding, Signer};
use rsa::RsaPrivateKey;

/// Where the server serves [`CERTIFICATE_PEM`]; AWS's certificates sit at the root of the
/// SNS endpoint too (`/SimpleNotificationService-<id>.pem`).
pub const CERT_PATH: &str = "/SimpleNotificationService-sqslite.pem";
/// The certificate at [`CERT_PATH`], so clients can check the `Signature`.
pub const CERTIFICATE_PEM: &str = include_str!("signing-cert.pem");
/// The private key signatures are made with: a fixed test key, not a secret.
const KEY_PEM: &str = include_str!("signing-key.pem");

/// The parsed key, once per process.
static KEY: LazyLock<Option<RsaPrivateKey>> =
    LazyLock::new(|| RsaPrivateKey::from_pkcs8_pem(KEY_PEM).ok());

/// The base64 signature of `canonical` for SignatureVersion `version` ("2" or else "1").
pub fn sign(version: &str, canonical: &str) -> String {
    let Some(key) = KEY.as_ref() else {
        return String::new();
    };
    let bytes = if version == "2" {
        SigningKey::<rsa::sha2::Sha256>::new(key.clone())
            .sign(canonical.as_bytes())
            .to_vec()
    } else {
        SigningKey::<sha1::Sha1>::new(key.clone())
            .sign(canonical.as_bytes())
            .to_vec()
    };
    STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rsa::pkcs1::EncodeRsaPublicKey;
    use rsa::pkcs1v15::{Signature, VerifyingKey};
    use rsa::signature::Verifier;

    #[test]
    fn signatures_verify_with_the_served_certificates_key() {
        let key = KEY.as_ref().expect("the embedded key parses");
        let public = key.to_public_key();
        // The certificate carries this very key (its RSAPublicKey DER sits inside the
        // certificate's SubjectPublicKeyInfo).
        let body: String = CERTIFICATE_PEM
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .collect();
        let cert = STANDARD.decode(body).unwrap();
        let der = public.to_pkcs1_der().unwrap();
        assert!(cert
            .windows(der.as_bytes().len())
            .any(|w| w == der.as_bytes()));

        let text = "Message\nhi\nMessageId\nid\nTimestamp\nt\nTopicArn\narn\nType\nNotification\n";
        let v1 = STANDARD.decode(sign("1", text)).unwrap();
        VerifyingKey::<sha1::Sha1>::new(public.clone())
            .verify(
                text.as_bytes(),
                &Signature::try_from(v1.as_slice()).unwrap(),
            )
            .unwrap();
        let v2 = STANDARD.decode(sign("2", text)).unwrap();
        VerifyingKey::<rsa::sha2::Sha256>::new(public)
            .verify(
                text.as_bytes(),
                &Signature::try_from(v2.as_slice()).unwrap(),
            )
            .unwrap();
    }
}
