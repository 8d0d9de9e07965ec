//! Message move tasks (StartMessageMoveTask and friends): server-side redrive from a dead-letter
//! queue back to its sources or to a chosen queue, in the background at a bounded rate.
//!
//! Pacing uses wall time (a move task is observed, not stepped); everything else (enqueue times,
//! the task's start time) uses the server clock.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use parking_lot::Mutex;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::engine::journal::{Op, TaskRecord};
use crate::engine::message::StoredMessage;
use crate::engine::validate;
use crate::error::{SqsError, SqsResult};
use crate::service::Service;

/// Moves per step when no rate is given: large enough to be quick, small enough to let receives in.
const UNPACED_CHUNK: usize = 100;
const KEPT_PER_SOURCE: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Running,
    Completed,
    Cancelling,
    Cancelled,
    Failed,
}

impl Status {
    fn parse(text: &str) -> Option<Status> {
        [
            Status::Running,
            Status::Completed,
            Status::Cancelling,
            Status::Cancelled,
            Status::Failed,
        ]
        .into_iter()
        .find(|s| s.as_str() == text)
    }

    fn as_str(self) -> &'static str {
        match self {
            Status::Running => "RUNNING",
            Status::Completed => "COMPLETED",
            Status::Cancelling => "CANCELLING",
            Status::Cancelled => "CANCELLED",
            Status::Failed => "FAILED",
        }
    }
}

#[derive(Debug)]
struct Task {
    handle: String,
    source_arn: String,
    destination_arn: Option<String>,
    rate: Option<u32>,
    started_at: u64,
    to_move: u64,
    moved: AtomicU64,
    cancel: AtomicBool,
    outcome: Mutex<(Status, Option<String>)>,
}

impl Task {
    fn status(&self) -> Status {
        self.outcome.lock().0
    }

    fn finish(&self, svc: &Service, status: Status, reason: Option<String>) {
        *self.outcome.lock() = (status, reason);
        self.save(svc);
    }

    /// Records the task's progress and outcome in the data directory, if there is one.
    fn save(&self, svc: &Service) {
        svc.journal.record_with(|| self.op());
    }

    /// The task's progress and outcome as the data directory keeps them.
    fn op(&self) -> Op {
        let (status, reason) = self.outcome.lock().clone();
        Op::PutTask(TaskRecord {
            handle: self.handle.clone(),
            source_arn: self.source_arn.clone(),
            destination_arn: self.destination_arn.clone(),
            rate: self.rate,
            started_at: self.started_at,
            to_move: self.to_move,
            moved: self.moved.load(Ordering::SeqCst),
            status: status.as_str().to_string(),
            reason,
        })
    }
}

/// Puts back the tasks read from the data directory and resumes those that were running when the
/// server stopped. Call it on the server's runtime.
pub fn resume(svc: &Arc<Service>, records: Vec<TaskRecord>) {
    for record in records {
        let status = Status::parse(&record.status).unwrap_or(Status::Failed);
        let status = match status {
            Status::Cancelling => Status::Cancelled,
            other => other,
        };
        let task = Arc::new(Task {
            handle: record.handle,
            source_arn: record.source_arn,
            destination_arn: record.destination_arn,
            rate: record.rate,
            started_at: record.started_at,
            to_move: record.to_move,
            moved: AtomicU64::new(record.moved),
            cancel: AtomicBool::new(false),
            outcome: Mutex::new((status, record.reason)),
        });
        svc.tasks.tasks.lock().push(task.clone());
        if status == Status::Running {
            tokio::spawn(run(svc.clone(), task));
        }
    }
}

/// Every task of the server, newest last.
#[derive(Debug, Default)]
pub struct MoveTasks {
    tasks: Mutex<Vec<Arc<Task>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
pub struct TaskInput {
    source_arn: Option<String>,
    destination_arn: Option<String>,
    max_number_of_messages_per_second: Option<i64>,
    max_results: Option<i64>,
    task_handle: Option<String>,
}

fn not_found(what: &str) -> SqsError {
    Service::resource_not_found(what)
}

pub fn start(svc: &Arc<Service>, region: &str, input: TaskInput) -> SqsResult<Value> {
    let source_arn = input
        .source_arn
        .ok_or_else(|| SqsError::missing("SourceArn"))?;
    let source = svc.queue_by_arn_in(region, &source_arn).ok_or_else(|| {
        not_found("The resource that you specified for the SourceArn parameter doesn't exist.")
    })?;
    let is_dead_letter_queue = svc.list_queues(region, "", None).iter().any(|q| {
        q.state
            .lock()
            .attrs
            .redrive_policy
            .as_ref()
            .is_some_and(|p| p.dead_letter_arn == source_arn)
    });
    if !is_dead_letter_queue {
        return Err(SqsError::invalid_parameter(
            "Source queue must be configured as a Dead Letter Queue.",
        ));
    }
    if let Some(destination) = &input.destination_arn {
        let target = svc.queue_by_arn_in(region, destination).ok_or_else(|| {
            not_found(
                "The resource that you specified for the DestinationArn parameter doesn't exist.",
            )
        })?;
        if target.fifo != source.fifo {
            return Err(SqsError::invalid_parameter(
                "The destination queue must be of the same type (standard or FIFO) as the source queue.",
            ));
        }
    }
    let rate = input
        .max_number_of_messages_per_second
        .map(|r| validate::in_range("MaxNumberOfMessagesPerSecond", r, 1, 500))
        .transpose()?;
    let now = svc.now();
    let to_move = {
        let mut state = source.state.lock();
        state.tick(now);
        state.messages.counts().visible as u64
    };
    let handle = URL_SAFE_NO_PAD.encode(
        json!({"taskId": crate::engine::message::random_uuid().to_string(), "sourceArn": source_arn})
            .to_string(),
    );
    let task = Arc::new(Task {
        handle: handle.clone(),
        source_arn: source_arn.clone(),
        destination_arn: input.destination_arn,
        rate,
        started_at: now,
        to_move,
        moved: AtomicU64::new(0),
        cancel: AtomicBool::new(false),
        outcome: Mutex::new((Status::Running, None)),
    });
    {
        let mut tasks = svc.tasks.tasks.lock();
        let active = tasks.iter().any(|t| {
            t.source_arn == source_arn && matches!(t.status(), Status::Running | Status::Cancelling)
        });
        if active {
            return Err(SqsError::invalid_parameter(
                "There is already a task running. Only one active task is allowed for a source queue arn at a given time.",
            ));
        }
        tasks.push(task.clone());
        task.save(svc);
        let same_source = tasks.iter().filter(|t| t.source_arn == source_arn).count();
        if same_source > KEPT_PER_SOURCE {
            let mut drop_count = same_source - KEPT_PER_SOURCE;
            tasks.retain(|t| {
                let old =
                    t.source_arn == source_arn && drop_count > 0 && t.status() != Status::Running;
                if old {
                    drop_count -= 1;
                }
                !old
            });
        }
    }
    tokio::spawn(run(svc.clone(), task));
    Ok(json!({ "TaskHandle": handle }))
}

/// Sends one chunk to its destinations, counting what it moved in the task (in the same commit as
/// the messages); messages whose destination is gone go back to the source and fail the task.
fn deliver(svc: &Service, task: &Task, chunk: Vec<StoredMessage>) -> Result<(), String> {
    let mut by_destination: HashMap<String, Vec<StoredMessage>> = HashMap::new();
    for message in chunk {
        let destination = task
            .destination_arn
            .clone()
            .or_else(|| message.dead_letter_source().map(String::from))
            .unwrap_or_default();
        by_destination.entry(destination).or_default().push(message);
    }
    let now = svc.now();
    let mut failure = None;
    for (arn, messages) in by_destination {
        match svc.queue_by_arn(&arn) {
            Some(target) => {
                let mut state = target.state.lock();
                task.moved
                    .fetch_add(messages.len() as u64, Ordering::SeqCst);
                state.accept_moved(messages, target.fifo, now, || task.op());
                drop(state);
                target.changed.notify_waiters();
            }
            None => {
                failure = Some(if arn.is_empty() {
                    "A message has no DeadLetterQueueSourceArn to return to.".to_string()
                } else {
                    format!("Destination queue {arn} does not exist.")
                });
                if let Some(source) = svc.queue_by_arn(&task.source_arn) {
                    let mut state = source.state.lock();
                    for message in messages {
                        state.restore(message);
                    }
                }
            }
        }
    }
    match failure {
        Some(reason) => Err(reason),
        None => Ok(()),
    }
}

async fn run(svc: Arc<Service>, task: Arc<Task>) {
    let chunk_size = task
        .rate
        .map_or(UNPACED_CHUNK, |r| (r as usize).clamp(1, 10));
    loop {
        if task.cancel.load(Ordering::SeqCst) {
            task.finish(&svc, Status::Cancelled, None);
            return;
        }
        let moved = task.moved.load(Ordering::SeqCst);
        if moved >= task.to_move {
            task.finish(&svc, Status::Completed, None);
            return;
        }
        let Some(source) = svc.queue_by_arn(&task.source_arn) else {
            task.finish(
                &svc,
                Status::Failed,
                Some("The source queue was deleted.".into()),
            );
            return;
        };
        let wanted = chunk_size.min((task.to_move - moved) as usize);
        let chunk = {
            let now = svc.now();
            let mut state = source.state.lock();
            state.tick(now);
            state.messages.take_visible(wanted, now)
        };
        if chunk.is_empty() {
            task.finish(&svc, Status::Completed, None);
            return;
        }
        let count = chunk.len();
        match deliver(&svc, &task, chunk) {
            Ok(()) => {}
            Err(reason) => {
                task.finish(&svc, Status::Failed, Some(reason));
                return;
            }
        }
        match task.rate {
            Some(rate) => {
                let pause = Duration::from_secs_f64(count as f64 / f64::from(rate));
                tokio::time::sleep(pause).await;
            }
            None => tokio::task::yield_now().await,
        }
    }
}

pub fn list(svc: &Arc<Service>, region: &str, input: TaskInput) -> SqsResult<Value> {
    let source_arn = input
        .source_arn
        .ok_or_else(|| SqsError::missing("SourceArn"))?;
    if svc.queue_by_arn_in(region, &source_arn).is_none() {
        return Err(not_found(
            "The resource that you specified for the SourceArn parameter doesn't exist.",
        ));
    }
    let max = input
        .max_results
        .map(|m| validate::in_range("MaxResults", m, 1, 10))
        .transpose()?
        .unwrap_or(1) as usize;
    let tasks = svc.tasks.tasks.lock();
    let results: Vec<Value> = tasks
        .iter()
        .rev()
        .filter(|t| t.source_arn == source_arn)
        .take(max)
        .map(|t| {
            let (status, reason) = t.outcome.lock().clone();
            let mut entry = Map::new();
            if status == Status::Running {
                entry.insert("TaskHandle".into(), json!(t.handle));
            }
            entry.insert("Status".into(), json!(status.as_str()));
            entry.insert("SourceArn".into(), json!(t.source_arn));
            if let Some(d) = &t.destination_arn {
                entry.insert("DestinationArn".into(), json!(d));
            }
            if let Some(r) = t.rate {
                entry.insert("MaxNumberOfMessagesPerSecond".into(), json!(r));
            }
            entry.insert(
                "ApproximateNumberOfMessagesMoved".into(),
                json!(t.moved.load(Ordering::SeqCst)),
            );
            entry.insert("ApproximateNumberOfMessagesToMove".into(), json!(t.to_move));
            if let Some(reason) = reason {
                entry.insert("FailureReason".into(), json!(reason));
            }
            entry.insert("StartedTimestamp".into(), json!(t.started_at));
            Value::Object(entry)
        })
        .collect();
    if results.is_empty() {
        // As SQS answers every list that is empty: without the key.
        return Ok(json!({}));
    }
    Ok(json!({ "Results": results }))
}

pub fn cancel(svc: &Arc<Service>, region: &str, input: TaskInput) -> SqsResult<Value> {
    let handle = input
        .task_handle
        .ok_or_else(|| SqsError::missing("TaskHandle"))?;
    // SQS's handles are base64 with padding; ours are URL-safe without: either is read.
    let unpadded = handle.trim_end_matches('=').as_bytes();
    let decoded = URL_SAFE_NO_PAD
        .decode(unpadded)
        .or_else(|_| STANDARD_NO_PAD.decode(unpadded))
        .ok()
        .and_then(|raw| serde_json::from_slice::<Value>(&raw).ok())
        .filter(|v| v.get("taskId").is_some());
    let Some(decoded) = decoded else {
        return Err(SqsError::invalid_parameter(
            "Value for parameter TaskHandle is invalid.",
        ));
    };
    // A handle names its source queue; SQS looks that up before the task.
    if let Some(source) = decoded.get("sourceArn").and_then(Value::as_str)
        && svc.queue_by_arn_in(region, source).is_none()
    {
        return Err(not_found(
            "The resource that you specified for the SourceArn parameter doesn't exist.",
        ));
    }
    let tasks = svc.tasks.tasks.lock();
    let task = tasks
        .iter()
        // A task of another region's queue is out of the request's reach, as on SQS.
        .find(|t| t.handle == handle && t.source_arn.split(':').nth(3) == Some(region))
        .ok_or_else(|| not_found("Task does not exist."))?;
    let mut outcome = task.outcome.lock();
    if outcome.0 != Status::Running {
        return Err(SqsError::invalid_parameter(
            "Only active tasks can be cancelled.",
        ));
    }
    outcome.0 = Status::Cancelling;
    drop(outcome);
    task.cancel.store(true, Ordering::SeqCst);
    task.save(svc);
    Ok(json!({ "ApproximateNumberOfMessagesMoved": task.moved.load(Ordering::SeqCst) }))
}
