//! Checks that a named AWS profile exists before anything is loaded from it. Without this check a
//! typo in `--profile` or `AWS_PROFILE` falls through to whatever other credentials the chain
//! finds (the environment, an instance role): the command then acts on another account.

use aws_runtime::env_config::file::EnvConfigFiles;
use aws_types::os_shim_internal::{Env, Fs};

use super::ClientError;

/// Fails with [`ClientError::UnknownProfile`] when `name` is in neither the config nor the
/// credentials file.
pub async fn check_exists(name: &str, files: &str) -> Result<(), ClientError> {
    let loaded =
        aws_config::profile::load(&Fs::real(), &Env::real(), &EnvConfigFiles::default(), None)
            .await;
    let known: Vec<String> = match &loaded {
        Ok(set) => {
            if set.get_profile(name).is_some() {
                return Ok(());
            }
            let mut names: Vec<String> = set.profiles().map(str::to_string).collect();
            names.sort();
            names
        }
        Err(_) => Vec::new(),
    };
    Err(ClientError::UnknownProfile {
        name: name.to_string(),
        known,
        files: files.to_string(),
        problem: loaded.err().map(|e| e.to_string()),
    })
}

/// The `region` a profile sets, read from the profile files alone (unlike the chain, where
/// `AWS_REGION` comes first): for a second client whose profile should decide its region.
pub async fn profile_region(name: &str) -> Option<String> {
    let loaded =
        aws_config::profile::load(&Fs::real(), &Env::real(), &EnvConfigFiles::default(), None)
            .await
            .ok()?;
    loaded.get_profile(name)?.get("region").map(str::to_string)
}

/// The config and credentials files the SDK reads (`AWS_CONFIG_FILE`,
/// `AWS_SHARED_CREDENTIALS_FILE`), as a person would look for them.
pub fn profile_file_paths(config: Option<&str>, credentials: Option<&str>) -> String {
    format!(
        "{} and {}",
        config.unwrap_or("~/.aws/config"),
        credentials.unwrap_or("~/.aws/credentials")
    )
}
