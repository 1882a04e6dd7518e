//! The HTTP floor and the router (src/http, src/service): connections and their limits, the
//! browser and admin guard, the Host rule of every route on loopback (rebinding), requests for
//! services sqslite does not serve, the outbound client over https, the request metrics of
//! every service, and hostile input to every decoder.

mod connections;
mod foreign_services;
mod hostile_inputs;
mod https_outbound;
mod rebinding;
mod router_metrics;
mod security;
