//! HTTP plumbing every layer may use: the response body type (whole or streamed) and form
//! decoding. It sits below the protocols, the admin API and the server, so each can build a
//! response or read a form without importing the others.

pub mod body;
pub mod form;
