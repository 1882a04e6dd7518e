//! Amazon S3 (src/s3) through the real `aws-sdk-s3` on the SQS port: buckets, objects,
//! listings, copies, multipart uploads, tags and Policies, and their errors, as S3 answers
//! them.

mod addressing;
mod buckets;
mod conditions;
mod config;
mod copies;
mod destinations;
mod integrity;
mod listing;
mod multipart;
mod notifications;
mod objects;
mod observed;
mod signatures;
