//! The `sqsctl` binary: picks the allocator and hands over to [`sqsctl::app::main`].

// The SDK allocates many small, short-lived buffers per request; mimalloc serves them with less
// CPU than the system allocator, which `cargo bench --bench cli` shows as messages per second.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    sqsctl::app::main()
}
