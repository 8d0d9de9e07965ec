//! SQS's server-side message move tasks (`StartMessageMoveTask` and its kin), as [`Sqs`] calls.

use super::TimedCall;
use super::{ClientError, Sqs};

/// A move task as `ListMessageMoveTasks` reports it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MoveTask {
    pub task_handle: Option<String>,
    pub status: String,
    pub source_arn: Option<String>,
    pub destination_arn: Option<String>,
    pub max_per_second: Option<i32>,
    pub moved: i64,
    pub to_move: Option<i64>,
    pub failure_reason: Option<String>,
    pub started_timestamp: i64,
}

impl Sqs {
    /// Starts a server-side move task from a DLQ; returns its task handle.
    pub async fn start_move_task(
        &self,
        source_arn: &str,
        destination_arn: Option<&str>,
        max_per_second: Option<i32>,
    ) -> Result<String, ClientError> {
        let out = self
            .client()
            .start_message_move_task()
            .source_arn(source_arn)
            .set_destination_arn(destination_arn.map(str::to_string))
            .set_max_number_of_messages_per_second(max_per_second)
            .send()
            .timed()
            .await
            .map_err(|e| self.err("StartMessageMoveTask", Some(source_arn), e))?;
        out.task_handle
            .ok_or_else(|| ClientError::InvalidInput("no task handle returned".into()))
    }

    /// The most recent move tasks of a DLQ (SQS keeps the latest 10).
    pub async fn list_move_tasks(&self, source_arn: &str) -> Result<Vec<MoveTask>, ClientError> {
        let out = self
            .client()
            .list_message_move_tasks()
            .source_arn(source_arn)
            .max_results(10)
            .send()
            .timed()
            .await
            .map_err(|e| self.err("ListMessageMoveTasks", Some(source_arn), e))?;
        Ok(out
            .results
            .unwrap_or_default()
            .into_iter()
            .map(|t| MoveTask {
                task_handle: t.task_handle,
                status: t.status.unwrap_or_default(),
                source_arn: t.source_arn,
                destination_arn: t.destination_arn,
                max_per_second: t.max_number_of_messages_per_second,
                moved: t.approximate_number_of_messages_moved,
                to_move: t.approximate_number_of_messages_to_move,
                failure_reason: t.failure_reason,
                started_timestamp: t.started_timestamp,
            })
            .collect())
    }

    /// Cancels a running move task; returns how many messages it had moved.
    pub async fn cancel_move_task(&self, task_handle: &str) -> Result<i64, ClientError> {
        let out = self
            .client()
            .cancel_message_move_task()
            .task_handle(task_handle)
            .send()
            .timed()
            .await
            .map_err(|e| self.err("CancelMessageMoveTask", None, e))?;
        Ok(out.approximate_number_of_messages_moved)
    }
}
