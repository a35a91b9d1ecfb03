//! The `warsim` binary: everything lives in the library.

fn main() -> std::process::ExitCode {
    warsim::cli::main()
}
