fn main() -> std::process::ExitCode {
    sqsctl::app::main()
}
