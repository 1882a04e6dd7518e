//! An object's additional checksum in the answers that carry one (PutObject, GetObject and
//! HeadObject when `x-amz-checksum-mode: ENABLED` asks), in the header of its algorithm.

use s3s::dto::{
    ChecksumType, GetObjectOutput, HeadObjectOutput, Part, PutObjectOutput, UploadPartOutput,
};

use crate::s3::engine::object::Checksum;

/// The checksum into one output type (their fields share the names).
macro_rules! fill {
    ($output:expr, $checksum:expr) => {{
        if let Some(c) = $checksum {
            let value = Some(c.value.clone());
            match c.algorithm {
                "CRC32" => $output.checksum_crc32 = value,
                "CRC32C" => $output.checksum_crc32c = value,
                "CRC64NVME" => $output.checksum_crc64nvme = value,
                "SHA1" => $output.checksum_sha1 = value,
                _ => $output.checksum_sha256 = value,
            }
        }
    }};
}

/// PutObject's.
pub fn put(output: &mut PutObjectOutput, checksum: Option<&Checksum>) {
    fill!(output, checksum);
    output.checksum_type = checksum.map(|_| full_object());
}

/// UploadPart's: the part's checksum.
pub fn part(checksum: Option<&Checksum>) -> UploadPartOutput {
    let mut output = UploadPartOutput::default();
    fill!(output, checksum);
    output
}

/// ListParts' part: its checksum by the upload's algorithm.
pub fn listed(part: &mut Part, algorithm: Option<&'static str>, value: Option<&str>) {
    let checksum = algorithm.zip(value).map(|(algorithm, value)| Checksum {
        algorithm,
        value: value.to_owned(),
    });
    fill!(part, checksum.as_ref());
}

/// A checksum of the whole object's bytes.
fn full_object() -> ChecksumType {
    ChecksumType::from_static(ChecksumType::FULL_OBJECT)
}

/// GetObject's.
pub fn get(output: &mut GetObjectOutput, checksum: Option<&Checksum>) {
    fill!(output, checksum);
    output.checksum_type = checksum.map(|_| full_object());
}

/// HeadObject's.
pub fn head(output: &mut HeadObjectOutput, checksum: Option<&Checksum>) {
    fill!(output, checksum);
    output.checksum_type = checksum.map(|_| full_object());
}
