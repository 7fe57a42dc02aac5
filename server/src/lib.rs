//! # Farebox online play
//!
//! A table server for any mod, its wire protocol ([`protocol`]) and a client library
//! ([`client`]). Tables live on a small pool of game threads ([`hub`]); a tokio runtime
//! carries the WebSocket connections ([`server`]). What each connection receives is built for
//! its seat alone ([`table`]): hidden information stays as safe on the wire as on the screen.
//!
//! ```no_run
//! use std::sync::Arc;
//! use farebox::source::{FolderResolver, FsSource};
//! use farebox_server::server::{Server, ServerConfig};
//! use farebox_server::table::TableSpec;
//! // The bundled Curbside, loaded from the repository's mods/ folder.
//! let def = farebox::content::load_mod(&FsSource::new("mods/curbside"), &FolderResolver::new("mods")).unwrap();
//! let server = Server::start(ServerConfig::new("127.0.0.1:0".parse().unwrap(), vec![Arc::new(def)])).unwrap();
//! let code = server.create_table(TableSpec {
//!     mod_id: "curbside".into(),
//!     seats: vec!["person".into(), "random".into()],
//!     options: Default::default(),
//!     clock: None,
//! }).unwrap();
//! println!("table {code} at {}", server.addr());
//! ```

pub mod bots;
pub mod client;
pub mod conn;
pub mod guard;
pub mod hub;
pub mod load;
pub mod protocol;
pub mod route;
pub mod server;
pub mod store;
pub mod table;
