//! Who may do what (src/http/auth, src/policy and each service's access column): signatures
//! and credentials, other accounts, queue policies and the check every action of every
//! service passes before it runs.

mod accounts;
mod authentication;
mod cross_account;
mod every_action;
mod every_s3_action;
mod policies;
mod signatures;
