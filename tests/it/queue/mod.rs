//! `queue create|set|info|tag|untag|url|delete|permission`, one submodule per subcommand, through the real
//! binary against the local server.

use crate::support::TestEnv;

mod create;
mod delete;
mod permission;
mod set;
mod tag;
mod url;

pub(super) fn queue_exists(env: &TestEnv, name: &str) -> bool {
    env.block_on(env.sqs().resolve(name)).is_ok()
}
