//! The queue calls of [`Sqs`]: resolving a queue given by name, URL or ARN, its attributes, listing,
//! creating, deleting and purging queues, and the sources of a dead-letter queue. The queue types
//! themselves are in [`queue`](super::queue).

use super::TimedCall;
use std::collections::{BTreeMap, HashMap};

use aws_sdk_sqs::types::QueueAttributeName;

use super::{ClientError, QueueAttributes, QueueRef, QueueSpec, Sqs};

impl Sqs {
    /// Resolves a queue given by name, URL or ARN to its URL.
    pub async fn resolve(&self, text: &str) -> Result<QueueRef, ClientError> {
        match QueueSpec::parse(text).map_err(ClientError::InvalidInput)? {
            QueueSpec::Url(url) => Ok(QueueRef::from_url(url)),
            QueueSpec::Name(name) => self.remembered_queue_url(text, &name, None).await,
            QueueSpec::Arn { region, .. } if region != self.region => {
                Err(ClientError::InvalidInput(format!(
                    "`{text}` is a queue in {region}, but sqsctl is working in {}: pass {} {region}",
                    self.region, self.names.region
                )))
            }
            QueueSpec::Arn { account, name, .. } => {
                self.remembered_queue_url(text, &name, Some(account)).await
            }
        }
    }

    /// [`Sqs::queue_url`] through the URL cache: a remembered URL (when this client serves from
    /// the cache) is provisional until a call on it succeeds ([`Sqs::look_again`]); a looked-up one
    /// is remembered.
    async fn remembered_queue_url(
        &self,
        given: &str,
        name: &str,
        owner: Option<String>,
    ) -> Result<QueueRef, ClientError> {
        if let Some((cache, true)) = &self.urls {
            if let Some(url) = cache.get(name, owner.as_deref(), given) {
                return Ok(QueueRef {
                    url,
                    name: name.to_string(),
                });
            }
        }
        let queue = self.queue_url(name, owner.clone()).await?;
        if let Some((cache, _)) = &self.urls {
            cache.put(name, owner.as_deref(), &queue.url);
        }
        Ok(queue)
    }

    /// What to do after a call on `queue` failed with `err`. When the call found no queue at a URL
    /// that came from the cache and no call has confirmed, the queue is looked up again as
    /// [`Sqs::lookup`] does (which fixes the cache): `Ok` with the queue found, for the caller to
    /// make its call once more there (a queue that does not exist means the call did nothing), or
    /// the lookup's error, so a queue that is gone fails as its lookup would have, with the same
    /// suggestions. Any other error comes back as it is.
    pub(crate) async fn look_again(
        &self,
        queue: &QueueRef,
        err: ClientError,
    ) -> Result<QueueRef, ClientError> {
        let Some((cache, true)) = &self.urls else {
            return Err(err);
        };
        if !matches!(err, ClientError::QueueNotFound { .. }) {
            return Err(err);
        }
        let Some(given) = cache.provisional(&queue.url) else {
            return Err(err);
        };
        cache.confirm(&queue.url);
        let owner = match QueueSpec::parse(&given) {
            Ok(QueueSpec::Arn { account, .. }) => Some(account),
            _ => None,
        };
        cache.forget(&queue.name, owner.as_deref());
        // Boxed: a rare path, kept out of the size of every call's future.
        let fresh = Box::pin(self.lookup(&given)).await?;
        if fresh.url != queue.url {
            cache.moved(&queue.url, &fresh.url);
        }
        Ok(fresh)
    }

    /// The URL a call on `queue` goes to: its own, unless it was a remembered URL that held no
    /// queue and the name was found elsewhere since ([`Sqs::look_again`]).
    pub(crate) fn current_url(&self, queue: &QueueRef) -> String {
        match &self.urls {
            Some((cache, true)) => cache
                .current(&queue.url)
                .unwrap_or_else(|| queue.url.clone()),
            _ => queue.url.clone(),
        }
    }

    /// A call on `queue` succeeded: a URL from the cache is confirmed.
    pub(crate) fn confirmed(&self, queue: &QueueRef) {
        if let Some((cache, true)) = &self.urls {
            cache.confirm(&queue.url);
        }
    }

    /// [`Sqs::resolve`] for a queue a user named: when a name (or URL) does not exist, the error
    /// carries the caller's queues with similar names. An ARN names its account, whose queues
    /// cannot be listed, so it gets none.
    pub async fn lookup(&self, text: &str) -> Result<QueueRef, ClientError> {
        match self.resolve(text).await {
            Err(ClientError::QueueNotFound {
                queue,
                region,
                account,
                ..
            }) => {
                if let Ok(QueueSpec::Arn { account, .. }) = QueueSpec::parse(text) {
                    return Err(ClientError::QueueNotFound {
                        queue,
                        region,
                        account: Some(account),
                        similar: None,
                    });
                }
                let names: Vec<String> = match self.list_queues(None).await {
                    Ok(queues) => queues.into_iter().map(|q| q.name).collect(),
                    Err(_) => Vec::new(),
                };
                Err(ClientError::QueueNotFound {
                    similar: Some(super::suggest::similar_names(&queue, &names)),
                    queue,
                    region,
                    account,
                })
            }
            other => other,
        }
    }

    /// The URL of the queue `name`, owned by `owner` (another account) or by the caller.
    pub async fn queue_url(
        &self,
        name: &str,
        owner: Option<String>,
    ) -> Result<QueueRef, ClientError> {
        let out = self
            .client()
            .get_queue_url()
            .queue_name(name)
            .set_queue_owner_aws_account_id(owner)
            .send()
            .timed()
            .await
            .map_err(|e| self.err("GetQueueUrl", Some(name), e))?;
        let url = out
            .queue_url
            .ok_or_else(|| ClientError::InvalidInput(format!("no URL returned for `{name}`")))?;
        Ok(QueueRef {
            url,
            name: name.to_string(),
        })
    }

    /// Resolves the queue an ARN names (for DLQ targets and `DeadLetterQueueSourceArn`).
    pub async fn resolve_arn(&self, arn: &str) -> Result<QueueRef, ClientError> {
        self.resolve(arn).await
    }

    /// All attributes of a queue.
    pub async fn attributes(&self, queue: &QueueRef) -> Result<QueueAttributes, ClientError> {
        match self.attributes_at(queue).await {
            Ok(attributes) => {
                self.confirmed(queue);
                Ok(attributes)
            }
            Err(err) => {
                let queue = self.look_again(queue, err).await?;
                self.attributes_at(&queue).await
            }
        }
    }

    async fn attributes_at(&self, queue: &QueueRef) -> Result<QueueAttributes, ClientError> {
        let out = self
            .client()
            .get_queue_attributes()
            .queue_url(self.current_url(queue))
            .attribute_names(QueueAttributeName::All)
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("GetQueueAttributes", queue, e))?;
        let map = out
            .attributes
            .unwrap_or_default()
            .into_iter()
            .map(|(name, value)| (name.as_str().to_string(), value))
            .collect();
        Ok(QueueAttributes(map))
    }

    pub async fn set_attributes(
        &self,
        queue: &QueueRef,
        attributes: BTreeMap<String, String>,
    ) -> Result<(), ClientError> {
        let map: HashMap<QueueAttributeName, String> = attributes
            .into_iter()
            .map(|(k, v)| (QueueAttributeName::from(k.as_str()), v))
            .collect();
        self.client()
            .set_queue_attributes()
            .queue_url(&queue.url)
            .set_attributes(Some(map))
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("SetQueueAttributes", queue, e))?;
        Ok(())
    }

    /// Queue URLs, following pagination.
    pub async fn list_queues(&self, prefix: Option<&str>) -> Result<Vec<QueueRef>, ClientError> {
        let mut urls = Vec::new();
        let mut token = None;
        loop {
            let out = self
                .client()
                .list_queues()
                .set_queue_name_prefix(prefix.map(str::to_string))
                .max_results(1000)
                .set_next_token(token)
                .send()
                .timed()
                .await
                .map_err(|e| self.err("ListQueues", None, e))?;
            urls.extend(
                out.queue_urls
                    .unwrap_or_default()
                    .into_iter()
                    .map(QueueRef::from_url),
            );
            token = out.next_token;
            if token.is_none() {
                break;
            }
        }
        Ok(urls)
    }

    pub async fn create_queue(
        &self,
        name: &str,
        attributes: BTreeMap<String, String>,
    ) -> Result<QueueRef, ClientError> {
        self.create_tagged_queue(name, attributes, BTreeMap::new())
            .await
    }

    /// Creates a queue with tags (given at creation, they need no separate call and no
    /// `sqs:TagQueue` permission).
    pub async fn create_tagged_queue(
        &self,
        name: &str,
        attributes: BTreeMap<String, String>,
        tags: BTreeMap<String, String>,
    ) -> Result<QueueRef, ClientError> {
        let map: HashMap<QueueAttributeName, String> = attributes
            .into_iter()
            .map(|(k, v)| (QueueAttributeName::from(k.as_str()), v))
            .collect();
        let out = self
            .client()
            .create_queue()
            .queue_name(name)
            .set_attributes(if map.is_empty() { None } else { Some(map) })
            .set_tags(if tags.is_empty() {
                None
            } else {
                Some(tags.into_iter().collect())
            })
            .send()
            .timed()
            .await
            .map_err(|e| self.err("CreateQueue", Some(name), e))?;
        let url = out
            .queue_url
            .ok_or_else(|| ClientError::InvalidInput("no queue URL returned".into()))?;
        if let Some((cache, _)) = &self.urls {
            cache.put(name, None, &url);
        }
        Ok(QueueRef {
            url,
            name: name.to_string(),
        })
    }

    pub async fn delete_queue(&self, queue: &QueueRef) -> Result<(), ClientError> {
        if let Some((cache, _)) = &self.urls {
            cache.forget(&queue.name, None);
        }
        self.client()
            .delete_queue()
            .queue_url(&queue.url)
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("DeleteQueue", queue, e))?;
        Ok(())
    }

    /// The source queues whose redrive policy points at this DLQ.
    pub async fn dead_letter_sources(&self, dlq: &QueueRef) -> Result<Vec<QueueRef>, ClientError> {
        let mut urls = Vec::new();
        let mut token = None;
        loop {
            let out = self
                .client()
                .list_dead_letter_source_queues()
                .queue_url(&dlq.url)
                .max_results(1000)
                .set_next_token(token)
                .send()
                .timed()
                .await
                .map_err(|e| self.err("ListDeadLetterSourceQueues", Some(&dlq.name), e))?;
            urls.extend(out.queue_urls.into_iter().map(QueueRef::from_url));
            token = out.next_token;
            if token.is_none() {
                break;
            }
        }
        Ok(urls)
    }

    pub async fn purge(&self, queue: &QueueRef) -> Result<(), ClientError> {
        self.client()
            .purge_queue()
            .queue_url(&queue.url)
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("PurgeQueue", queue, e))?;
        Ok(())
    }

    /// The tags of a queue, by key.
    pub async fn tags(&self, queue: &QueueRef) -> Result<BTreeMap<String, String>, ClientError> {
        let out = self
            .client()
            .list_queue_tags()
            .queue_url(&queue.url)
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("ListQueueTags", queue, e))?;
        Ok(out.tags.unwrap_or_default().into_iter().collect())
    }

    /// Adds tags to a queue, replacing the values of keys it has already.
    pub async fn tag(
        &self,
        queue: &QueueRef,
        tags: BTreeMap<String, String>,
    ) -> Result<(), ClientError> {
        self.client()
            .tag_queue()
            .queue_url(&queue.url)
            .set_tags(Some(tags.into_iter().collect()))
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("TagQueue", queue, e))?;
        Ok(())
    }

    /// Removes tags from a queue by key (keys it does not have are no error).
    pub async fn untag(&self, queue: &QueueRef, keys: Vec<String>) -> Result<(), ClientError> {
        self.client()
            .untag_queue()
            .queue_url(&queue.url)
            .set_tag_keys(Some(keys))
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("UntagQueue", queue, e))?;
        Ok(())
    }

    /// Allows `accounts` the `actions` (names as in the API, without `SQS:`) on a queue, as the
    /// statement labelled `label` of its policy.
    pub async fn add_permission(
        &self,
        queue: &QueueRef,
        label: &str,
        accounts: &[String],
        actions: &[&str],
    ) -> Result<(), ClientError> {
        self.client()
            .add_permission()
            .queue_url(&queue.url)
            .label(label)
            .set_aws_account_ids(Some(accounts.to_vec()))
            .set_actions(Some(actions.iter().map(|a| a.to_string()).collect()))
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("AddPermission", queue, e))?;
        Ok(())
    }

    /// Removes the permission labelled `label` from a queue's policy.
    pub async fn remove_permission(
        &self,
        queue: &QueueRef,
        label: &str,
    ) -> Result<(), ClientError> {
        self.client()
            .remove_permission()
            .queue_url(&queue.url)
            .label(label)
            .send()
            .timed()
            .await
            .map_err(|e| self.err_on("RemovePermission", queue, e))?;
        Ok(())
    }
}
