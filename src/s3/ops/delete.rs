//! DeleteObjects: up to 1,000 keys in one request, each deleted if the caller may delete it
//! (its action-list row is `Keys`: the gate asks the bucket's Policy per key), each answered
//! in the result, the quiet form listing only the failures.

use s3s::dto::{DeleteObjectsInput, DeleteObjectsOutput, DeletedObject, Error};
use s3s::{S3Request, S3Response, S3Result};

use super::{call, Ops};
use crate::s3::actions::Ask;
use crate::s3::engine::Refusal;
use crate::s3::error::refused;

/// The most keys one DeleteObjects names.
const MAX_KEYS: usize = 1000;

impl Ops {
    pub(super) async fn delete_objects(
        &self,
        req: S3Request<DeleteObjectsInput>,
    ) -> S3Result<S3Response<DeleteObjectsOutput>> {
        let call = call(&req)?;
        let input = &req.input;
        if input.delete.objects.len() > MAX_KEYS {
            return Err(refused(Refusal::MalformedXml));
        }
        let bucket = self.store.bucket(&input.bucket).map_err(refused)?;
        let quiet = input.delete.quiet.unwrap_or(false);
        let ask = Ask {
            call,
            iam: "DeleteObject",
        };
        let (mut deleted, mut errors) = (Vec::new(), Vec::new());
        for object in &input.delete.objects {
            if !self.gate.allows(&ask, &input.bucket, Some(&object.key)) {
                errors.push(Error {
                    code: Some("AccessDenied".into()),
                    key: Some(object.key.clone()),
                    message: Some("Access Denied".into()),
                    version_id: None,
                });
                continue;
            }
            if bucket.delete(&object.key).map_err(refused)?.is_some() {
                self.notify(&bucket, call, ("ObjectRemoved:Delete", &object.key), None);
            }
            if !quiet {
                deleted.push(DeletedObject {
                    key: Some(object.key.clone()),
                    ..DeletedObject::default()
                });
            }
        }
        Ok(S3Response::new(DeleteObjectsOutput {
            deleted: Some(deleted),
            errors: (!errors.is_empty()).then_some(errors),
            request_charged: None,
        }))
    }
}
