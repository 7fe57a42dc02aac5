//! `farebox`: the command line (and, later, the Studio). All the work is in the library.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    let code = farebox_editor::run(args, &mut input, &mut out, &mut err);
    std::process::exit(code);
}
