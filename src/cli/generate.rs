//! Arguments of the hidden `sqsctl generate`.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Directory to write completions/ and man/ into
    #[arg(long, default_value = ".", value_name = "DIR")]
    pub out_dir: PathBuf,
}
