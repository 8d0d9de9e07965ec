//! SQS's own redrive, the server-side message move task (StartMessageMoveTask): started on a DLQ,
//! followed until it ends, listed, cancelled. The task moves every message of the DLQ; it has no
//! selection, journal or archive. Progress while a task is followed goes to a callback.

use std::time::{Duration, Instant};

use crate::client::{ClientError, MoveTask, QueueAttributes, QueueRef, Sqs};
use crate::interrupt::Interrupt;

/// SQS's bound on a move task's MaxNumberOfMessagesPerSecond.
pub const MAX_RATE: f64 = 500.0;
/// How often a running task is polled.
const POLL: Duration = Duration::from_millis(500);

#[derive(Debug, thiserror::Error)]
pub enum MoveTaskError {
    #[error("{queue} has no QueueArn attribute")]
    NoArn { queue: String },
    #[error("no move task is running for {queue}")]
    NoneRunning { queue: String },
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// A move task to start: from a DLQ, to one queue or (no destination) each message's own source.
#[derive(Debug, Clone)]
pub struct MoveTaskRequest {
    pub source_arn: String,
    /// `None`: SQS returns each message to the queue its DeadLetterQueueSourceArn names.
    pub destination_arn: Option<String>,
    /// Messages per second at most (1 to [`MAX_RATE`]).
    pub rate: Option<i32>,
}

impl MoveTaskRequest {
    /// A task from the DLQ of `dlq_attrs` to the queue of `destination_attrs` (or, `None`, to each
    /// message's source), at `rate` messages per second (rounded).
    pub fn new(
        dlq: &QueueRef,
        dlq_attrs: &QueueAttributes,
        destination_attrs: Option<&QueueAttributes>,
        rate: Option<f64>,
    ) -> Result<MoveTaskRequest, MoveTaskError> {
        Ok(MoveTaskRequest {
            source_arn: arn(dlq, dlq_attrs)?.to_string(),
            destination_arn: destination_attrs.and_then(|a| a.arn()).map(str::to_string),
            rate: rate.map(|r| r.round() as i32),
        })
    }
}

/// How a followed task ended, as far as it was followed.
#[derive(Debug, Clone)]
pub struct Followed {
    pub handle: String,
    /// The task as last listed (status `UNKNOWN` if it was never seen).
    pub task: MoveTask,
    /// Following stopped on Ctrl-C; the task goes on on the server.
    pub interrupted: bool,
    pub elapsed: Duration,
}

impl Followed {
    pub fn completed(&self) -> bool {
        self.task.status == "COMPLETED"
    }
}

/// Starts the task; returns its handle.
pub async fn start(sqs: &Sqs, request: &MoveTaskRequest) -> Result<String, ClientError> {
    sqs.start_move_task(
        &request.source_arn,
        request.destination_arn.as_deref(),
        request.rate,
    )
    .await
}

/// Follows the task `handle` (started at `started`) until it ends or Ctrl-C (`interrupt`) stops
/// the following; `progress` gets each listing of it.
pub async fn follow(
    sqs: &Sqs,
    request: &MoveTaskRequest,
    handle: String,
    started: Instant,
    interrupt: &Interrupt,
    mut progress: impl FnMut(&MoveTask),
) -> Result<Followed, ClientError> {
    let mut last: Option<MoveTask> = None;
    let mut interrupted = false;
    loop {
        let tasks = sqs.list_move_tasks(&request.source_arn).await?;
        // SQS names the handle only while a task runs; after that, ours is the latest one.
        let task = match tasks
            .iter()
            .position(|t| t.task_handle.as_deref() == Some(handle.as_str()))
        {
            Some(index) => tasks.into_iter().nth(index),
            None => tasks.into_iter().max_by_key(|t| t.started_timestamp),
        };
        if let Some(task) = &task {
            progress(task);
        }
        let running = task
            .as_ref()
            .is_some_and(|t| t.status == "RUNNING" || t.status == "CANCELLING");
        last = task.or(last);
        if !running {
            break;
        }
        tokio::select! {
            () = tokio::time::sleep(POLL) => {}
            () = interrupt.wait() => { interrupted = true; break; }
        }
    }
    let task = last.unwrap_or_else(|| MoveTask {
        task_handle: Some(handle.clone()),
        status: "UNKNOWN".into(),
        source_arn: Some(request.source_arn.clone()),
        destination_arn: request.destination_arn.clone(),
        max_per_second: request.rate,
        moved: 0,
        to_move: None,
        failure_reason: None,
        started_timestamp: 0,
    });
    Ok(Followed {
        handle,
        task,
        interrupted,
        elapsed: started.elapsed(),
    })
}

/// The recent move tasks of the DLQ `dlq` (name, URL or ARN), with the DLQ's name.
pub async fn list(sqs: &Sqs, dlq: &str) -> Result<(String, Vec<MoveTask>), MoveTaskError> {
    let (queue, arn) = queue_arn(sqs, dlq).await?;
    let tasks = sqs.list_move_tasks(&arn).await?;
    Ok((queue.name, tasks))
}

/// A cancelled move task.
#[derive(Debug, Clone)]
pub struct CancelledTask {
    pub source: String,
    pub handle: String,
    /// Messages it had moved.
    pub moved: i64,
}

/// Cancels the running move task of the DLQ `dlq` (name, URL or ARN).
pub async fn cancel(sqs: &Sqs, dlq: &str) -> Result<CancelledTask, MoveTaskError> {
    let (queue, arn) = queue_arn(sqs, dlq).await?;
    let tasks = sqs.list_move_tasks(&arn).await?;
    let Some(handle) = tasks
        .iter()
        .find(|t| t.status == "RUNNING")
        .and_then(|t| t.task_handle.clone())
    else {
        return Err(MoveTaskError::NoneRunning { queue: queue.name });
    };
    let moved = sqs.cancel_move_task(&handle).await?;
    Ok(CancelledTask {
        source: queue.name,
        handle,
        moved,
    })
}

async fn queue_arn(sqs: &Sqs, dlq: &str) -> Result<(QueueRef, String), MoveTaskError> {
    let queue = sqs.lookup(dlq).await?;
    let attrs = sqs.attributes(&queue).await?;
    let arn = arn(&queue, &attrs)?.to_string();
    Ok((queue, arn))
}

fn arn<'a>(queue: &QueueRef, attrs: &'a QueueAttributes) -> Result<&'a str, MoveTaskError> {
    attrs.arn().ok_or_else(|| MoveTaskError::NoArn {
        queue: queue.name.clone(),
    })
}
