//! How `redrive --to` reaches a queue in another region or account: the region the queue URL or
//! ARN names (or `--to-region`), and the credentials and endpoint of `--to-profile` (or
//! `--to-endpoint-url`), in a second client built the way the DLQ's is. Also the words that name
//! each side of a move in its question.

use anyhow::Context as _;

use super::usage;
use crate::client::{ClientError, QueueRef, QueueSpec, SettingNames, Sqs, profiles};
use crate::commands::common::{account_region, queue_place};
use crate::commands::context::Context;
use crate::error::with_hint;
use crate::redrive::DestinationAccess;

/// What the command line says about reaching the destination; nothing: as the DLQ is reached.
#[derive(Debug, Default, Clone)]
pub struct Reach {
    pub profile: Option<String>,
    pub region: Option<String>,
    pub endpoint_url: Option<String>,
}

impl Reach {
    pub fn is_same(&self) -> bool {
        self.profile.is_none() && self.region.is_none() && self.endpoint_url.is_none()
    }

    /// The reach a journal's plan recorded, for `--resume`.
    pub fn recorded(access: &DestinationAccess) -> Reach {
        Reach {
            profile: access.profile.clone(),
            region: Some(access.region.clone()),
            endpoint_url: access.endpoint_url.clone(),
        }
    }
}

/// The destination's own client, and what the plan records of how it was reached.
pub struct Destination {
    pub sqs: Sqs,
    pub access: DestinationAccess,
}

/// The client for `to` when it is not the DLQ's: another region (from the queue URL or ARN,
/// `--to-region`, or the profile of `--to-profile`), other credentials, or another endpoint.
/// `None` when the DLQ's client reaches it. A `--to-region` that contradicts the region the URL or
/// ARN names is a usage error.
pub async fn connect(
    ctx: &Context,
    source: &Sqs,
    to: Option<&str>,
    reach: &Reach,
) -> anyhow::Result<Option<Destination>> {
    let Some(to) = to else {
        return Ok(None);
    };
    let named = QueueSpec::parse(to).ok().and_then(|spec| spec.region());
    if let (Some(given), Some(named)) = (&reach.region, &named)
        && given != named
    {
        return Err(usage(format!(
            "--to-region {given} contradicts --to, which names a queue in {named}: drop --to-region, or name the queue in {given}"
        )));
    }
    let profile_region = match &reach.profile {
        Some(profile) => profiles::profile_region(profile).await,
        None => None,
    };
    let region = reach
        .region
        .clone()
        .or(named)
        .or(profile_region)
        .unwrap_or_else(|| source.region().to_string());
    if reach.profile.is_none() && reach.endpoint_url.is_none() && region == source.region() {
        return Ok(None);
    }
    let base = ctx.aws_settings();
    let mut settings = base.clone();
    settings.region = Some(region.clone());
    settings.names = SettingNames {
        region: "--to-region (or the region of --to)",
        endpoint_url: "--to-endpoint-url",
        ..base.names
    };
    if let Some(profile) = &reach.profile {
        // The profile's own endpoint (its `endpoint_url`, or its `services` section) unless
        // --to-endpoint-url says otherwise; the DLQ's --endpoint-url is not the destination's.
        settings.profile = Some(profile.clone());
        settings.endpoint_url = reach.endpoint_url.clone();
    } else if reach.endpoint_url.is_some() {
        settings.endpoint_url = reach.endpoint_url.clone();
    }
    let place = format!(
        "region {region}{}",
        settings
            .selected_profile()
            .map(|p| format!(", profile {p}"))
            .unwrap_or_default()
    );
    let sqs = Sqs::connect(&settings)
        .await
        .map_err(|err| rehinted(err, &region))
        .with_context(|| format!("cannot set up the client of the destination ({place})"))?;
    ctx.printer.debug(format!(
        "destination: region {}, endpoint {}, profile {}",
        sqs.region(),
        sqs.endpoint_description(),
        settings.selected_profile().unwrap_or("`default`")
    ));
    // Reached and found before anything is received from the DLQ.
    let found = async {
        let queue = sqs.lookup(to).await?;
        sqs.attributes(&queue).await.map(|_| ())
    };
    found
        .await
        .map_err(|err| rehinted(err, &region))
        .with_context(|| {
            format!(
                "cannot reach the destination {to} at {} ({place})",
                sqs.endpoint_description()
            )
        })?;
    Ok(Some(Destination {
        sqs,
        access: DestinationAccess {
            region,
            profile: reach.profile.clone(),
            endpoint_url: reach.endpoint_url.clone(),
        },
    }))
}

/// A destination client's error, with the hint that names the destination's own options.
fn rehinted(err: ClientError, region: &str) -> anyhow::Error {
    let hint = match &err {
        ClientError::QueueNotFound { .. } => format!(
            "check the name, the destination's region (now {region}: --to-region, or name the queue by URL or ARN) and its account (--to-profile)"
        ),
        ClientError::Transport { .. }
        | ClientError::Timeout { .. }
        | ClientError::NotSqs { .. }
        | ClientError::InvalidEndpoint { .. } => "check --to-endpoint-url (or the endpoint_url of the profile of --to-profile) and the network".to_string(),
        ClientError::UnknownProfile { known, .. } if !known.is_empty() => format!(
            "check --to-profile; the profiles that exist: {}",
            known.join(", ")
        ),
        ClientError::UnknownProfile { .. } => "check --to-profile: no profile is configured in the AWS config and credentials files (`aws configure --profile NAME` adds one)".to_string(),
        ClientError::Auth { .. } | ClientError::NoCredentials { .. } => "check --to-profile: its credentials need sqs:GetQueueUrl, sqs:GetQueueAttributes and sqs:SendMessage on the destination".to_string(),
        _ => return err.into(),
    };
    with_hint(err, hint)
}

/// The two sides of a move as its question names them: queue, account and region, and the profile
/// when it is not the default one.
pub struct Sides {
    pub source: String,
    pub destination: String,
}

impl Sides {
    pub fn new(
        ctx: &Context,
        source_sqs: &Sqs,
        source: &QueueRef,
        destination: &QueueRef,
        access: Option<&DestinationAccess>,
    ) -> Sides {
        let source_profile = ctx.aws_settings().selected_profile();
        let (region, profile) = match access {
            Some(access) => (
                access.region.as_str(),
                access.profile.as_deref().or(source_profile),
            ),
            None => (source_sqs.region(), source_profile),
        };
        Sides {
            source: side(source, source_sqs.region(), source_profile),
            destination: side(destination, region, profile),
        }
    }
}

fn side(queue: &QueueRef, region: &str, profile: Option<&str>) -> String {
    match profile {
        Some(profile) if profile != "default" => format!(
            "`{}` ({}, profile {profile})",
            queue.name,
            account_region(queue, region)
        ),
        _ => queue_place(queue, region),
    }
}
