//! Entry point: parse, dispatch, classify errors.
pub fn main() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}
