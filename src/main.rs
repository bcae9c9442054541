use std::process::ExitCode;

fn main() -> ExitCode {
    catchess::cli::run()
}
