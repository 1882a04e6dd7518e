//! Amazon SQS: its two wire protocols (`protocol`), its operations (`actions`), the queues
//! and every queue rule (`engine`), the declared queues (`declare`) and its error table
//! (`error`). The router hands it the requests no other service claims.

pub mod actions;
pub mod declare;
pub mod engine;
pub mod error;
pub mod protocol;
pub mod service;
