//! The Print tab: a preview of the paper edition that follows the mod's files, its pages,
//! its warnings, and Export PDF.

use super::*;

/// The warnings of the layout the Print tab shows, once one is shown.
fn warnings(s: &Studio) -> Option<Vec<String>> {
    s.print.printed().map(|p| p.warnings.clone())
}

#[test]
fn the_print_tab_previews_follows_saved_files_and_exports() {
    let (dir, folder) = copy_of("curbside");
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded and watched", |s| {
        s.project
            .as_ref()
            .is_some_and(|p| p.def.is_some() && p.watching())
    });
    show_tab(&mut h, "Print");
    assert_eq!(h.state().as_ref().unwrap().tab, Tab::Print);
    until(&mut h, "the pages laid out", |s| warnings(s).is_some());
    until_shown(&mut h, "Warnings (0)");
    // Pages: the first is Passengers' first sheet; the next button turns to the second.
    assert!(
        h.query_by_label_contains("Page 1 of ").is_some(),
        "no page shown"
    );
    h.get_by_label("Next page").click();
    until_shown(&mut h, "Previous page");
    assert!(h.query_by_label_contains("Page 2 of ").is_some());
    // Letter paper: laid out again on Letter pages.
    h.get_by_label("Letter").click();
    until(&mut h, "Letter pages", |s| {
        s.print
            .printed()
            .is_some_and(|p| (p.pages[0].w - 215.9).abs() < 0.01)
    });
    // A long text saved in the deck's file (through the watcher): the preview lays out the
    // new version and lists the card whose text no longer fits.
    let deck = folder.join("decks/passengers.toml");
    let text = std::fs::read_to_string(&deck).unwrap();
    let long = "Twelve hours on my feet, and then the bus did not come, ".repeat(30);
    let changed = text.replacen("Twelve hours on my feet. Just get me home.", &long, 1);
    assert_ne!(changed, text);
    let tmp = folder.join(".passengers.toml.swp");
    std::fs::write(&tmp, &changed).unwrap();
    std::fs::rename(&tmp, &deck).unwrap();
    until(&mut h, "the overflow listed", |s| {
        warnings(s).is_some_and(|w| w.iter().any(|w| w.contains("does not fit")))
    });
    until_shown(&mut h, "Warnings (1)");
    let w = warnings(h.state().as_ref().unwrap()).unwrap();
    assert!(
        w[0].contains("card `p01` of deck `passengers`") && w[0].contains("region"),
        "{w:?}"
    );
    assert!(h.query_by_label_contains("does not fit").is_some());
    // Export PDF writes the file the field names, whole.
    let out = dir.join("edition.pdf");
    h.state_mut().as_mut().unwrap().print.out = out.display().to_string();
    h.get_by_label("Export PDF").click();
    until(&mut h, "the PDF written", |s| {
        s.print.export_status.starts_with("Wrote ")
    });
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"%PDF") && bytes.len() > 10_000);
    assert!(!dir.join("edition.pdf.part").exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// A template's picture, saved with the card art beside it, is drawn in the preview (not a
/// grey box), and the Gutter fold option lays the sheets out landscape.
#[test]
fn the_print_preview_draws_a_templates_pictures_and_lays_out_a_gutter_fold() {
    let (dir, folder) = copy_of("curbside");
    // A picture on every passenger card: one PNG in the mod's folder.
    std::fs::create_dir_all(folder.join("art")).unwrap();
    let mut img = image::RgbaImage::new(40, 20);
    for p in img.pixels_mut() {
        *p = image::Rgba([200, 40, 40, 255]);
    }
    img.save(folder.join("art/fare.png")).unwrap();
    let print = folder.join("print.toml");
    let text = std::fs::read_to_string(&print).unwrap();
    std::fs::write(
        &print,
        format!(
            "{text}\n[[decks.passengers.regions]]\nx = 40.0\ny = 60.0\nw = 16.0\nh = 8.0\nimage = \"art/fare.png\"\n"
        ),
    )
    .unwrap();
    let mut h = studio(folder.display().to_string());
    until(&mut h, "the mod loaded", |s| {
        s.project.as_ref().is_some_and(|p| p.def.is_some())
    });
    show_tab(&mut h, "Print");
    until(&mut h, "the pages laid out", |s| {
        s.print.printed().is_some()
    });
    // Turn to the first sheet of passengers.
    let first = {
        let s = h.state().as_ref().unwrap();
        let p = s.print.printed().unwrap();
        p.pages
            .iter()
            .position(|p| p.label.starts_with("Passenger cards, sheet"))
            .expect("a sheet of passengers")
    };
    assert_eq!(h.state().as_ref().unwrap().print.pictures_shown(), 0);
    h.state_mut().as_mut().unwrap().print.page = first;
    until(&mut h, "the picture drawn", |s| {
        s.print.pictures_shown() == 1
    });
    assert!(
        h.state().as_ref().unwrap().print.errors().is_empty(),
        "{:?}",
        h.state().as_ref().unwrap().print.errors()
    );
    h.get_by_label("Gutter fold").click();
    until(&mut h, "landscape sheets", |s| {
        s.print
            .printed()
            .is_some_and(|p| p.pages[0].w > p.pages[0].h && p.pages[0].label.contains("fold"))
    });
    let _ = std::fs::remove_dir_all(dir);
}
