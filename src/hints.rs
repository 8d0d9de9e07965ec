//! The next step printed under an error (`hint: ...`). Engines report facts (which queue was not
//! found, in which region; which limit a read would cross); the command line knows its own flags,
//! so every hint that names one is written here, once, and `app::report` asks for it.

use crate::client::peek::{MIN_UNFORCED_MAX_RECEIVE_COUNT, PeekError};
use crate::client::{ClientError, QueueRef};
use crate::diagnose::gather::NotAMessage;
use crate::error::{CommandHint, HintedError};
use crate::redrive::RouteError;
use crate::redrive::move_task::MoveTaskError;

/// The hint for one cause of an error, if its kind has one.
pub fn of(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    if let Some(hinted) = cause.downcast_ref::<CommandHint>() {
        return Some(hinted.hint.clone());
    }
    if let Some(peek) = cause.downcast_ref::<PeekError>() {
        return peek_error(peek);
    }
    if let Some(client) = cause.downcast_ref::<ClientError>() {
        return client_error(client);
    }
    if cause.is::<NotAMessage>() {
        return Some(
            "--input reads JSON Lines as `sqsctl receive` and `sqsctl peek` write them: one \
             message per line, each with at least a \"body\""
                .to_string(),
        );
    }
    cause.downcast_ref::<HintedError>().map(|h| h.hint.clone())
}

/// The hint for a refused or failed read.
pub fn peek_error(err: &PeekError) -> Option<String> {
    match err {
        PeekError::WouldDeadLetter { .. } => Some(format!(
            "queues with a maxReceiveCount of {MIN_UNFORCED_MAX_RECEIVE_COUNT} or more are read \
             without asking; pass --force to read this one anyway (each message read uses one \
             of its receives), or read an export with --input"
        )),
        PeekError::LeftAtLimit { .. } => Some(
            "consumers may have taken those messages since; pass --force to read anyway \
             (any message still at its limit then moves to the dead-letter queue)"
                .to_string(),
        ),
        PeekError::Client(e) => client_error(e),
    }
}

/// A next step for the user, where the usual cause of a client error is known.
pub fn client_error(err: &ClientError) -> Option<String> {
    match err {
        ClientError::QueueNotFound {
            region,
            account,
            similar,
            ..
        } => Some(queue_not_found(
            region,
            account.as_deref(),
            similar.as_deref(),
        )),
        ClientError::NoRegion => Some(
            "pass --region, set AWS_REGION, or set a region in your AWS profile".to_string(),
        ),
        ClientError::InvalidRegion { .. } => Some(
            "a region name looks like us-east-1 or eu-west-2: check --region, AWS_REGION and the profile's region".to_string(),
        ),
        ClientError::UnknownProfile { known, problem, .. } => Some(match (problem, known.is_empty()) {
            (Some(problem), _) => format!("the profile files could not be read: {problem}"),
            (None, true) => "no profile is configured there: run `aws configure --profile NAME`, or unset AWS_PROFILE / drop --profile to use the environment's credentials".to_string(),
            (None, false) => format!("the profiles that exist: {}", known.join(", ")),
        }),
        ClientError::NoCredentials { profile, files, .. } => Some(format!(
            "looked in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), the profile `{}` in {}, SSO, web identity, and the container and instance roles: set AWS_PROFILE (or --profile) to a configured profile (for an SSO profile, run `aws sso login` first), run `aws configure`, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; for the local server any values work",
            profile.as_deref().unwrap_or("default"),
            files
        )),
        ClientError::Auth { .. } => Some(
            "check the profile or keys in use (--profile, AWS_PROFILE) and that they are not expired".to_string(),
        ),
        ClientError::Throttled { .. } => {
            Some("lower --concurrency or --rate, and try again".to_string())
        }
        ClientError::Service { code, .. } if code == "MissingParameter" => Some(
            "FIFO queues need a message group id: pass --group-id (or group_id in each JSON record)".to_string(),
        ),
        ClientError::Service { code, .. } if code == "AWS.SimpleQueueService.PurgeQueueInProgress" || code == "PurgeQueueInProgress" => Some(
            "SQS allows one purge per queue every 60 seconds; wait and try again".to_string(),
        ),
        ClientError::InvalidEndpoint { .. } => Some(
            "check --endpoint-url, AWS_ENDPOINT_URL_SQS and AWS_ENDPOINT_URL: an endpoint looks like http://127.0.0.1:9324".to_string(),
        ),
        ClientError::EndpointRules { .. } => Some(
            "FIPS and dual-stack endpoints (AWS_USE_FIPS_ENDPOINT, AWS_USE_DUALSTACK_ENDPOINT, or use_fips_endpoint and use_dualstack_endpoint in the profile) are AWS's own: they do not combine with --endpoint-url or AWS_ENDPOINT_URL_SQS, and need a region AWS serves them in".to_string(),
        ),
        ClientError::Timeout { .. } => Some(
            "check that the endpoint is up and reachable; --connect-timeout and --read-timeout (SQSCTL_CONNECT_TIMEOUT, SQSCTL_READ_TIMEOUT) set how long to wait".to_string(),
        ),
        ClientError::NotSqs { .. } => Some(
            "is --endpoint-url (or AWS_ENDPOINT_URL_SQS / AWS_ENDPOINT_URL) an SQS endpoint? sqsctl local prints the one to use".to_string(),
        ),
        ClientError::Transport { .. } => Some(
            "check --endpoint-url / AWS_ENDPOINT_URL_SQS and your network; for a local server, is `sqsctl local` running?".to_string(),
        ),
        _ => None,
    }
}

/// The hint for a queue that does not exist: the similar names a lookup found, or where to look.
pub fn queue_not_found(region: &str, account: Option<&str>, similar: Option<&[String]>) -> String {
    match (account, similar) {
        (Some(account), _) => format!(
            "the queue was looked for in account {account} only: check the account, the name and the region (now {region}), and that the queue's policy lets these credentials see it"
        ),
        (None, Some([])) => format!(
            "no queue in {region} has a similar name: check the region (--region, AWS_REGION) or pass the queue URL; `sqsctl queues` lists what exists"
        ),
        (None, Some(similar)) => {
            let list: Vec<String> = similar.iter().map(|n| format!("`{n}`")).collect();
            format!(
                "did you mean {}? (or is the queue in another region than {region}? pass --region or the queue URL)",
                list.join(", ")
            )
        }
        (None, None) => format!(
            "check the name and the region (now {region}): pass --region or a queue URL, and run `sqsctl queues` to list what exists"
        ),
    }
}

/// The hint for a redrive route the engine refused, where another choice of queues helps.
pub fn redrive_route(err: &RouteError) -> Option<String> {
    match err {
        RouteError::NoSource { .. } => Some("name the destination with --to QUEUE".to_string()),
        RouteError::SeveralSources { .. } => Some(
            "choose one with --to QUEUE (`--dry-run` without --to counts the messages per source queue; `--native` returns each to its own source)".to_string(),
        ),
        RouteError::MixedTypes { .. } => {
            Some("pick a destination of the same type with --to".to_string())
        }
        RouteError::DestinationIsSource => None,
        RouteError::Client(e) => client_error(e),
    }
}

/// The hint for a refused or failed native move task.
pub fn move_task(err: &MoveTaskError) -> Option<String> {
    match err {
        MoveTaskError::NoneRunning { queue } => Some(format!(
            "`sqsctl redrive status {queue}` lists its recent tasks"
        )),
        MoveTaskError::NoArn { .. } => None,
        MoveTaskError::Client(e) => client_error(e),
    }
}

/// The hint for a queue whose message groups were asked for, but that is not FIFO.
pub fn not_fifo(queue: &str) -> String {
    format!("`sqsctl diagnose {queue}` checks standard queues")
}

/// How to finish sending messages whose outcome is unknown without sending them twice.
pub fn unknown_send_outcome(queue: &QueueRef) -> String {
    if queue.is_fifo() {
        format!(
            "`{}` is a FIFO queue: re-send the same records (the `unknown` records carry them, with their deduplication ids) within 5 minutes, and SQS drops the ones that did arrive",
            queue.name
        )
    } else {
        format!(
            "`{}` is a standard queue: SQS may have them already, and re-sending may deliver them twice; check the queue (or make sure consumers tolerate duplicates) before re-sending the `unknown` records",
            queue.name
        )
    }
}

/// The hint for a message that breaks SQS's rules, found before sending (`reason` says which).
pub fn invalid_message(queue: &QueueRef, reason: &str) -> String {
    if reason.contains("group id") && queue.is_fifo() {
        format!(
            "`{}` is a FIFO queue: pass --group-id ID (or give each JSON record a group_id)",
            queue.name
        )
    } else if reason.contains("1 MiB") {
        "SQS caps a message at 1 MiB; store large payloads elsewhere (S3) and send a reference"
            .to_string()
    } else if reason.contains("body is empty") {
        "give a body of at least one character (blank input lines are skipped with --lines and --jsonl)".to_string()
    } else if reason.contains("character") {
        "SQS accepts tab, newline, carriage return and Unicode from U+0020 up (no other control characters, no U+FFFE/U+FFFF); encode binary data as base64".to_string()
    } else if reason.contains("message attributes") {
        "merge attributes, or move some into the body".to_string()
    } else {
        "nothing was sent".to_string()
    }
}

/// What a send to a FIFO queue without content-based deduplication needs.
pub fn no_dedup_id() -> &'static str {
    "pass --dedup-id auto (an id derived from each message's content), or --dedup-id ID, or give each JSON record a dedup_id; or enable ContentBasedDeduplication on the queue"
}

/// The hint for a message SQS did not accept.
pub fn send_entry(queue: &QueueRef, code: &str, message: &str) -> Option<String> {
    if queue.is_fifo() && message.to_ascii_lowercase().contains("deduplication") {
        return Some(no_dedup_id().to_string());
    }
    client_error(&ClientError::Service {
        action: "SendMessageBatch",
        code: code.to_string(),
        message: message.to_string(),
    })
}
