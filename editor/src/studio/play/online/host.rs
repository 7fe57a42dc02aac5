//! Hosting a table from the Studio: the server started in this process, the table opened and
//! the host seated, all on a background thread.

use super::*;

/// Starts the server, opens the table and takes the first person's seat.
pub(super) fn host_table(def: Arc<GameDef>, spec: HostSpec) -> Done {
    let failed = |why: String| Done::Failed {
        why,
        form: false,
        client: None,
    };
    let addr = match spec.addr.trim().parse() {
        Ok(a) => a,
        Err(_) => {
            return failed(format!(
                "`{}` is not an address to listen at (an IP address and a port, as 127.0.0.1:0 or 0.0.0.0:7420)",
                spec.addr.trim()
            ));
        }
    };
    let Some(mine) = spec
        .seats
        .iter()
        .position(|s| s == farebox_server::protocol::PERSON)
    else {
        return failed("choose Person for at least one seat: the one you play".into());
    };
    let mut cfg = ServerConfig::new(addr, vec![def.clone()]);
    cfg.grace = spec.grace;
    let server = match Server::start(cfg) {
        Ok(s) => s,
        Err(e) => return failed(format!("cannot listen at {addr}: {e}")),
    };
    let code = match server.create_table(TableSpec {
        mod_id: def.id.clone(),
        seats: spec.seats.clone(),
        options: spec.options.clone(),
        clock: None,
    }) {
        Ok(c) => c,
        Err(why) => {
            server.stop();
            return failed(format!("the table could not be opened: {why}"));
        }
    };
    let local = server.addr().to_string();
    let client = match Client::connect(&local, WAIT) {
        Ok(c) => c,
        Err(why) => {
            server.stop();
            return failed(why);
        }
    };
    match client.join(
        &code,
        Some(mine as u8),
        spec.name.trim(),
        Some(&def.content_hash),
        WAIT,
    ) {
        Ok(seated) => Done::Hosted {
            server,
            client,
            seated,
        },
        Err(why) => {
            drop(client);
            server.stop();
            failed(why)
        }
    }
}
