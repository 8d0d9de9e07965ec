//! The state of one server: settings, clock, the queue registry, move tasks and fault injection,
//! and how queue URLs and ARNs resolve to queues.
//!
//! Queues are kept apart by region, as on SQS: a request sees the queues of the region it was
//! signed for (see [`crate::http::region`]), and the same name may exist in several regions. Queue URLs
//! of the server's default region are `<endpoint>/<account>/<name>`; those of any other region
//! carry it as their first path segment, `<endpoint>/<region>/<account>/<name>`, so that a URL
//! names one queue wherever it is used, whatever its host part. LocalStack's URL shapes
//! ([`crate::http::queue_urls`]) may be chosen instead; every shape is accepted back.

pub mod persist;
pub mod tasks;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use parking_lot::{Mutex, RwLock};
use tokio::sync::Notify;

use crate::clock::Clock;
use crate::engine::attempts::ReceiveAttempts;
use crate::engine::journal::{Journal, Op};
use crate::engine::limits::Budget;
use crate::engine::queue::Queue;
use crate::engine::realism::{Chance, Realism};
use crate::error::{ErrorKind, SqsError, SqsResult};
use crate::faults::{Faults, Stats};
use crate::http::hosts::HostPolicy;
use crate::http::origins::OriginPolicy;
use crate::http::queue_urls::{QueueUrls, UrlStrategy, region_of_host};
use crate::service::tasks::MoveTasks;

/// One entry of the init directory and how it went.
#[derive(Debug, Clone, serde::Serialize)]
pub struct InitDirEntry {
    pub name: String,
    /// `queues` or `script`.
    pub kind: &'static str,
    /// `UNKNOWN` (not yet run), `RUNNING`, `SUCCESSFUL` or `ERROR`, as LocalStack names them.
    pub state: &'static str,
}

/// What the init directory has done: its entries in order, and whether all have run.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct InitDirStatus {
    pub completed: bool,
    pub entries: Vec<InitDirEntry>,
}

#[derive(Debug)]
pub struct Service {
    /// The region of unsigned requests, of start-up queues and of queues kept by a data directory
    /// written before queues had regions.
    pub region: String,
    pub account: String,
    /// How queue URLs are built: by default on the server's own address or configured host name,
    /// never on a request's `Host` header (only the `dynamic` strategy reads it).
    pub urls: QueueUrls,
    /// Whether LocalStack's own endpoints answer (`--localstack`).
    pub localstack: bool,
    /// What the init directory has done so far (`/_localstack/init` reports it).
    pub init_dir: Mutex<InitDirStatus>,
    pub hosts: HostPolicy,
    /// The web origins whose pages may make requests (`--allow-origin`).
    pub origins: OriginPolicy,
    /// Whether the inspection endpoints answer (`--no-inspection` turns them off).
    pub inspection: bool,
    pub clock: Clock,
    pub purge_cooldown_ms: u64,
    pub faults: Faults,
    /// Where the server departs from exact behaviour as SQS does (`--like-sqs`).
    pub chance: Chance,
    pub tasks: MoveTasks,
    /// Where changes are recorded: off, or the data directory's writer.
    pub journal: Journal,
    /// The bound on stored message bytes, shared by every queue.
    pub budget: Arc<Budget>,
    /// Messages a queue may hold in flight before receives get nothing (`--max-in-flight`).
    pub max_in_flight: usize,
    pub attempts: ReceiveAttempts,
    /// How long a deleted queue's name cannot be used again (SQS: 60 s), on the server clock.
    pub deleted_name_cooldown_ms: u64,
    /// Regions and names of deleted queues and when they were deleted, for
    /// `QueueDeletedRecently`. Kept in memory only: a restarted server forgets them.
    deleted: Mutex<HashMap<(String, String), u64>>,
    /// Queues by region, then by name.
    queues: RwLock<BTreeMap<String, BTreeMap<String, Arc<Queue>>>>,
    next_queue_id: AtomicU64,
    stopping: AtomicBool,
    /// Wakes long polls when the server stops.
    pub stop: Notify,
}

impl Service {
    pub fn new(
        region: String,
        account: String,
        endpoint: String,
        hosts: HostPolicy,
        clock: Clock,
        purge_cooldown_ms: u64,
        faults: Faults,
    ) -> Self {
        Service {
            region,
            account,
            urls: QueueUrls {
                strategy: UrlStrategy::Plain,
                base: endpoint.trim_end_matches('/').to_string(),
            },
            localstack: false,
            init_dir: Mutex::new(InitDirStatus::default()),
            hosts,
            origins: OriginPolicy::default(),
            inspection: true,
            clock,
            purge_cooldown_ms,
            faults,
            chance: Chance::new(Realism::EXACT, None),
            tasks: MoveTasks::default(),
            journal: Journal::off(),
            budget: Budget::unlimited(),
            max_in_flight: crate::MAX_IN_FLIGHT,
            attempts: ReceiveAttempts::default(),
            deleted_name_cooldown_ms: 60_000,
            deleted: Mutex::new(HashMap::new()),
            queues: RwLock::new(BTreeMap::new()),
            next_queue_id: AtomicU64::new(1),
            stopping: AtomicBool::new(false),
            stop: Notify::new(),
        }
    }

    /// The counters of what the server did and injected.
    pub fn stats(&self) -> Stats {
        Stats {
            duplicate_deliveries: self.chance.duplicate_deliveries(),
            ..self.faults.stats()
        }
    }

    pub fn now(&self) -> u64 {
        self.clock.now_millis()
    }

    pub fn begin_stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.stop.notify_waiters();
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    pub fn arn_of(&self, region: &str, name: &str) -> String {
        format!("arn:aws:sqs:{region}:{}:{name}", self.account)
    }

    /// A queue URL as a client sees it, in the configured shape (by default the default
    /// region's without a region segment).
    pub fn url_of(&self, region: &str, name: &str) -> String {
        self.url_for(region, name, None)
    }

    /// A queue URL for a request that came with `Host: request_host`.
    pub fn url_for(&self, region: &str, name: &str, request_host: Option<&str>) -> String {
        self.urls
            .url(&self.region, region, &self.account, name, request_host)
    }

    pub fn next_id(&self) -> u64 {
        self.next_queue_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Makes ids start at `first` at the least, so a restarted server never reuses an id that
    /// receipt handles of an earlier run carry.
    pub fn reserve_ids_below(&self, first: u64) {
        self.next_queue_id.fetch_max(first, Ordering::Relaxed);
    }

    pub fn queue(&self, region: &str, name: &str) -> Option<Arc<Queue>> {
        self.queues.read().get(region)?.get(name).cloned()
    }

    /// Resolves a queue URL by its last path segments (`[region/]account/name`), so the host
    /// part (`localhost`, `127.0.0.1`, a container name) does not matter. With `region` (the one
    /// a request was signed for), a URL of another region names no queue, as on SQS.
    pub fn queue_by_url(&self, region: Option<&str>, url: Option<&str>) -> SqsResult<Arc<Queue>> {
        let url = url
            .filter(|u| !u.is_empty())
            .ok_or_else(|| SqsError::missing("QueueUrl"))?;
        let (host, path) = match url.find("://") {
            Some(i) => {
                let rest = &url[i + 3..];
                match rest.find('/') {
                    Some(j) => (&rest[..j], &rest[j..]),
                    None => (rest, ""),
                }
            }
            None => ("", url),
        };
        // LocalStack's shapes may carry the region in the host instead of the path, or nowhere
        // (`off`): then it is the request's, as LocalStack reads it.
        let localstack_shapes = self.localstack || self.urls.strategy != UrlStrategy::Plain;
        let host_region = if localstack_shapes {
            region_of_host(host).or(region)
        } else {
            None
        };
        let path = path.split(['?', '#']).next().unwrap_or("");
        let mut segments = path.rsplit('/').filter(|s| !s.is_empty());
        let name = segments.next().unwrap_or("");
        let bad_account = segments
            .next()
            .is_some_and(|account| account != self.account);
        let url_region = segments.next().or(host_region).unwrap_or(&self.region);
        if name.is_empty() || bad_account || region.is_some_and(|r| r != url_region) {
            return Err(SqsError::queue_does_not_exist());
        }
        self.queue(url_region, name)
            .ok_or_else(SqsError::queue_does_not_exist)
    }

    /// Resolves an ARN of this server's account, in whichever region it names.
    pub fn queue_by_arn(&self, arn: &str) -> Option<Arc<Queue>> {
        let mut parts = arn.splitn(6, ':');
        let ok =
            parts.next() == Some("arn") && parts.next().is_some() && parts.next() == Some("sqs");
        if !ok {
            return None;
        }
        let region = parts.next()?;
        if parts.next() != Some(self.account.as_str()) {
            return None;
        }
        parts.next().and_then(|name| self.queue(region, name))
    }

    /// Resolves an ARN of `region` only: a queue of another region is out of reach of a request
    /// or a queue of this one, as on SQS.
    pub fn queue_by_arn_in(&self, region: &str, arn: &str) -> Option<Arc<Queue>> {
        self.queue_by_arn(arn).filter(|q| q.region == region)
    }

    /// Inserts a new queue, or returns the existing one of that region and name for the caller
    /// to compare. A name whose queue was deleted within the cooldown is refused with
    /// `QueueDeletedRecently`.
    pub fn insert_queue(&self, queue: Queue) -> SqsResult<Result<Arc<Queue>, Arc<Queue>>> {
        let mut queues = self.queues.write();
        let region = queues.entry(queue.region.clone()).or_default();
        if let Some(existing) = region.get(&queue.name) {
            return Ok(Err(existing.clone()));
        }
        let now = self.now();
        let recently = self
            .deleted
            .lock()
            .get(&(queue.region.clone(), queue.name.clone()))
            .is_some_and(|at| now < at.saturating_add(self.deleted_name_cooldown_ms));
        if recently {
            return Err(SqsError::new(
                ErrorKind::QueueDeletedRecently,
                "You must wait 60 seconds after deleting a queue before you can create another with the same name.",
            ));
        }
        {
            let mut state = queue.state.lock();
            state.attach(self.journal.clone(), queue.row, self.budget.clone());
            state.save(&queue);
        }
        let queue = Arc::new(queue);
        region.insert(queue.name.clone(), queue.clone());
        Ok(Ok(queue))
    }

    /// Puts back a queue read from the data directory, already attached to this server.
    pub fn restore_queue(&self, queue: Queue) {
        let queue = Arc::new(queue);
        self.queues
            .write()
            .entry(queue.region.clone())
            .or_default()
            .insert(queue.name.clone(), queue);
    }

    pub fn remove_queue(&self, queue: &Arc<Queue>) {
        let mut queues = self.queues.write();
        let region = queues.get_mut(&queue.region);
        if let Some(region) = region
            && region
                .get(&queue.name)
                .is_some_and(|q| Arc::ptr_eq(q, queue))
        {
            region.remove(&queue.name);
            self.journal
                .record_with(|| Op::DeleteQueue { queue: queue.row });
            let now = self.now();
            let mut deleted = self.deleted.lock();
            let cooldown = self.deleted_name_cooldown_ms;
            deleted.retain(|_, at| now < at.saturating_add(cooldown));
            deleted.insert((queue.region.clone(), queue.name.clone()), now);
        }
        drop(queues);
        queue.changed.notify_waiters();
    }

    /// Queues of `region` whose names start with `prefix`, in name order, after `after` if
    /// given.
    pub fn list_queues(&self, region: &str, prefix: &str, after: Option<&str>) -> Vec<Arc<Queue>> {
        let queues = self.queues.read();
        let Some(queues) = queues.get(region) else {
            return Vec::new();
        };
        queues
            .range::<str, _>((
                match after {
                    Some(a) => std::ops::Bound::Excluded(a),
                    None => std::ops::Bound::Unbounded,
                },
                std::ops::Bound::Unbounded,
            ))
            .filter(|(name, _)| name.starts_with(prefix))
            .map(|(_, q)| q.clone())
            .collect()
    }

    pub fn resource_not_found(what: &str) -> SqsError {
        SqsError::new(ErrorKind::ResourceNotFound, what.to_string())
    }
}
