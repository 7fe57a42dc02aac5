//! `Host::hook_chain`: which mod gives each step of a hook once house rules have wrapped it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use farebox::content;
use farebox::script::{HookPart, Host, Limits};
use farebox::source::{FolderResolver, FsSource};

fn host(id: &str) -> Host {
    let mods = concat!(env!("CARGO_MANIFEST_DIR"), "/../mods");
    let src = FsSource::new(format!("{mods}/{id}"));
    let def = content::load_mod(&src, &FolderResolver::new(mods)).unwrap();
    Host::new(Arc::new(def), Limits::default()).unwrap()
}

fn parts(h: &Host, hook: &str) -> Vec<(HookPart, String)> {
    h.hook_chain(hook)
        .into_iter()
        .map(|s| (s.part, s.mod_id))
        .collect()
}

#[test]
fn a_hook_chain_names_the_mod_of_every_step() {
    let game = host("curbside");
    assert_eq!(
        parts(&game, "apply"),
        vec![(HookPart::Base, "curbside".to_string())]
    );
    assert!(game.hook_chain("no-such-hook").is_empty());

    let rule = host("curbside-gas-station");
    let apply = rule.hook_chain("apply");
    assert_eq!(
        apply
            .iter()
            .map(|s| (s.part, s.mod_id.as_str()))
            .collect::<Vec<_>>(),
        vec![
            (HookPart::Before, "curbside-gas-station"),
            (HookPart::Base, "curbside")
        ]
    );
    assert_eq!(apply[0].script, "rules/station.luau");
    assert!(
        apply[0].order > apply[1].order,
        "the house rule's script runs later"
    );
    assert_eq!(
        parts(&rule, "actions"),
        vec![
            (HookPart::Base, "curbside".to_string()),
            (HookPart::After, "curbside-gas-station".to_string())
        ]
    );
    // A hook the house rule leaves alone is the game's alone.
    assert_eq!(
        parts(&rule, "score"),
        vec![(HookPart::Base, "curbside".to_string())]
    );
}
