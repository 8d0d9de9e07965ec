//! The errors the local server answers with, and how each appears on the wire.
//!
//! Each SQS error has two names: the AWS JSON `__type` (`com.amazonaws.sqs#QueueDoesNotExist`) and the
//! legacy query-protocol code (`AWS.SimpleQueueService.NonExistentQueue`) that SQS sends in the
//! `x-amzn-query-error` header. aws-sdk-sqs and boto3 are "query compatible" and take the error code
//! from that header, so both must be right for clients to see the error they expect.

use std::borrow::Cow;
use std::fmt;

/// Every error kind the server produces. The wire names come from the SQS API reference and the error
/// deserializers of aws-sdk-sqs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    QueueDoesNotExist,
    QueueNameExists,
    QueueDeletedRecently,
    PurgeQueueInProgress,
    MessageNotInflight,
    ReceiptHandleIsInvalid,
    BatchEntryIdsNotDistinct,
    BatchRequestTooLong,
    EmptyBatchRequest,
    InvalidBatchEntryId,
    TooManyEntriesInBatchRequest,
    InvalidAttributeName,
    InvalidAttributeValue,
    InvalidMessageContents,
    InvalidParameterValue,
    MissingParameter,
    ResourceNotFound,
    UnsupportedOperation,
    OverLimit,
    RequestThrottled,
    InvalidAction,
    SerializationError,
    AccessDenied,
    /// A queue URL the server cannot read (LocalStack's developer endpoint answers this).
    InvalidAddress,
    /// A call LocalStack's developer endpoint does not take (anything but ReceiveMessage).
    InvalidRequest,
    InternalError,
}

impl ErrorKind {
    /// The shape name that follows the namespace in `__type`: the SQS model's error shape, or for
    /// the errors common to AWS services the `...Exception` name SQS answers with (recorded:
    /// `InvalidParameterValueException`, `MissingRequiredParameterException`).
    pub fn shape(self) -> &'static str {
        match self {
            ErrorKind::QueueDoesNotExist => "QueueDoesNotExist",
            ErrorKind::QueueNameExists => "QueueNameExists",
            ErrorKind::QueueDeletedRecently => "QueueDeletedRecently",
            ErrorKind::PurgeQueueInProgress => "PurgeQueueInProgress",
            ErrorKind::MessageNotInflight => "MessageNotInflight",
            ErrorKind::ReceiptHandleIsInvalid => "ReceiptHandleIsInvalid",
            ErrorKind::BatchEntryIdsNotDistinct => "BatchEntryIdsNotDistinct",
            ErrorKind::BatchRequestTooLong => "BatchRequestTooLong",
            ErrorKind::EmptyBatchRequest => "EmptyBatchRequest",
            ErrorKind::InvalidBatchEntryId => "InvalidBatchEntryId",
            ErrorKind::TooManyEntriesInBatchRequest => "TooManyEntriesInBatchRequest",
            ErrorKind::InvalidAttributeName => "InvalidAttributeName",
            ErrorKind::InvalidAttributeValue => "InvalidAttributeValue",
            ErrorKind::InvalidMessageContents => "InvalidMessageContents",
            ErrorKind::InvalidParameterValue => "InvalidParameterValueException",
            ErrorKind::MissingParameter => "MissingRequiredParameterException",
            ErrorKind::ResourceNotFound => "ResourceNotFoundException",
            ErrorKind::UnsupportedOperation => "UnsupportedOperation",
            ErrorKind::OverLimit => "OverLimit",
            ErrorKind::RequestThrottled => "RequestThrottled",
            ErrorKind::InvalidAction => "UnknownOperationException",
            ErrorKind::SerializationError => "SerializationException",
            ErrorKind::AccessDenied => "AccessDeniedException",
            ErrorKind::InvalidAddress => "InvalidAddress",
            ErrorKind::InvalidRequest => "InvalidRequest",
            ErrorKind::InternalError => "InternalError",
        }
    }

    /// The Query code of the kind whose JSON shape name is `shape`, where they differ.
    pub fn query_code_of_shape(shape: &str) -> Option<&'static str> {
        use ErrorKind::*;
        [
            QueueDoesNotExist,
            QueueNameExists,
            QueueDeletedRecently,
            PurgeQueueInProgress,
            MessageNotInflight,
            BatchEntryIdsNotDistinct,
            BatchRequestTooLong,
            EmptyBatchRequest,
            InvalidBatchEntryId,
            TooManyEntriesInBatchRequest,
            UnsupportedOperation,
        ]
        .into_iter()
        .find(|kind| kind.shape() == shape)
        .map(ErrorKind::query_code)
    }

    /// The legacy query-protocol code, sent in `x-amzn-query-error`.
    pub fn query_code(self) -> &'static str {
        match self {
            ErrorKind::QueueDoesNotExist => "AWS.SimpleQueueService.NonExistentQueue",
            ErrorKind::QueueNameExists => "QueueAlreadyExists",
            ErrorKind::QueueDeletedRecently => "AWS.SimpleQueueService.QueueDeletedRecently",
            ErrorKind::PurgeQueueInProgress => "AWS.SimpleQueueService.PurgeQueueInProgress",
            ErrorKind::MessageNotInflight => "AWS.SimpleQueueService.MessageNotInflight",
            ErrorKind::BatchEntryIdsNotDistinct => {
                "AWS.SimpleQueueService.BatchEntryIdsNotDistinct"
            }
            ErrorKind::BatchRequestTooLong => "AWS.SimpleQueueService.BatchRequestTooLong",
            ErrorKind::EmptyBatchRequest => "AWS.SimpleQueueService.EmptyBatchRequest",
            ErrorKind::InvalidBatchEntryId => "AWS.SimpleQueueService.InvalidBatchEntryId",
            ErrorKind::TooManyEntriesInBatchRequest => {
                "AWS.SimpleQueueService.TooManyEntriesInBatchRequest"
            }
            ErrorKind::UnsupportedOperation => "AWS.SimpleQueueService.UnsupportedOperation",
            ErrorKind::InvalidAction => "InvalidAction",
            ErrorKind::SerializationError => "MalformedQueryString",
            ErrorKind::ResourceNotFound => "ResourceNotFoundException",
            ErrorKind::ReceiptHandleIsInvalid => "ReceiptHandleIsInvalid",
            ErrorKind::InvalidAttributeName => "InvalidAttributeName",
            ErrorKind::InvalidAttributeValue => "InvalidAttributeValue",
            ErrorKind::InvalidMessageContents => "InvalidMessageContents",
            ErrorKind::InvalidParameterValue => "InvalidParameterValue",
            ErrorKind::MissingParameter => "MissingParameter",
            ErrorKind::OverLimit => "OverLimit",
            ErrorKind::RequestThrottled => "RequestThrottled",
            ErrorKind::AccessDenied => "AccessDenied",
            ErrorKind::InvalidAddress => "InvalidAddress",
            ErrorKind::InvalidRequest => "InvalidRequest",
            ErrorKind::InternalError => "InternalError",
        }
    }

    /// The `Code` of a failed batch entry: SQS's own error shapes by name, the common errors by
    /// their Query code (SQS answered `"Code": "InvalidParameterValue"` in a JSON batch).
    pub fn entry_code(self) -> &'static str {
        match self {
            ErrorKind::InvalidParameterValue | ErrorKind::MissingParameter => self.query_code(),
            _ => self.shape(),
        }
    }

    /// Whether the caller is at fault (HTTP 400, `;Sender`) or the server (HTTP 500, `;Receiver`).
    pub fn sender_fault(self) -> bool {
        !matches!(self, ErrorKind::InternalError)
    }

    /// The HTTP status of SQS's model (`awsQueryError` codes): 403 for a purge within the minute,
    /// throttling and the in-flight limit, 404 for a receipt handle or move-task resource that does
    /// not exist, 400 for every other fault of the caller, 500 for the server's.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorKind::AccessDenied
            | ErrorKind::PurgeQueueInProgress
            | ErrorKind::OverLimit
            | ErrorKind::RequestThrottled => 403,
            ErrorKind::ResourceNotFound
            | ErrorKind::ReceiptHandleIsInvalid
            | ErrorKind::InvalidAddress => 404,
            _ if self.sender_fault() => 400,
            _ => 500,
        }
    }
}

/// An error answer: a kind and a human message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct SqsError {
    pub kind: ErrorKind,
    pub message: String,
}

impl fmt::Display for SqsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.query_code(), self.message)
    }
}

impl SqsError {
    /// An error with `message`, cut to [`MAX_MESSAGE_BYTES`] whatever input it quotes.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        let mut message = message.into();
        if message.len() > MAX_MESSAGE_BYTES {
            let mut end = MAX_MESSAGE_BYTES;
            while !message.is_char_boundary(end) {
                end -= 1;
            }
            message.truncate(end);
            message.push_str("...");
        }
        SqsError { kind, message }
    }

    pub fn queue_does_not_exist() -> Self {
        Self::new(
            ErrorKind::QueueDoesNotExist,
            "The specified queue does not exist.",
        )
    }

    pub fn missing(parameter: &str) -> Self {
        Self::new(
            ErrorKind::MissingParameter,
            format!("The request must contain the parameter {parameter}."),
        )
    }

    /// The phrasing SQS uses for out-of-range request parameters.
    pub fn invalid_value(parameter: &str, value: impl fmt::Display, reason: &str) -> Self {
        let value = value.to_string();
        Self::new(
            ErrorKind::InvalidParameterValue,
            format!(
                "Value {} for parameter {} is invalid. Reason: {reason}",
                excerpt(&value),
                excerpt(parameter)
            ),
        )
    }

    pub fn invalid_parameter(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidParameterValue, message)
    }

    pub fn invalid_attribute_value(name: &str) -> Self {
        Self::new(
            ErrorKind::InvalidAttributeValue,
            format!("Invalid value for the parameter {}.", excerpt(name)),
        )
    }

    pub fn invalid_attribute_name(name: &str) -> Self {
        Self::new(
            ErrorKind::InvalidAttributeName,
            format!("Unknown Attribute {}.", excerpt(name)),
        )
    }

    pub fn receipt_handle_invalid(handle: &str) -> Self {
        Self::new(
            ErrorKind::ReceiptHandleIsInvalid,
            format!(
                "The input receipt handle \"{}\" is not a valid receipt handle.",
                excerpt(handle)
            ),
        )
    }

    pub fn internal() -> Self {
        Self::new(
            ErrorKind::InternalError,
            "We encountered an internal error. Please try again.",
        )
    }

    /// The JSON body sent for this error.
    pub fn body(&self) -> String {
        // Protocol-level errors come from the service framework, not the SQS model.
        let namespace = match self.kind {
            ErrorKind::InvalidAction
            | ErrorKind::SerializationError
            | ErrorKind::AccessDenied
            | ErrorKind::InvalidParameterValue
            | ErrorKind::MissingParameter => "com.amazon.coral.service",
            _ => "com.amazonaws.sqs",
        };
        serde_json::json!({
            "__type": format!("{namespace}#{}", self.kind.shape()),
            "message": self.message,
        })
        .to_string()
    }

    /// The value of the `x-amzn-query-error` header.
    pub fn query_header(&self) -> String {
        let fault = if self.kind.sender_fault() {
            "Sender"
        } else {
            "Receiver"
        };
        format!("{};{}", self.kind.query_code(), fault)
    }
}

pub type SqsResult<T> = Result<T, SqsError>;

/// The longest error message sent, a net under the excerpts of the messages that quote input.
pub const MAX_MESSAGE_BYTES: usize = 8192;

/// At most this many characters of a client's input are quoted back in an error message, so a
/// megabyte of garbage is not echoed back. Enough for what SQS quotes whole: a receipt handle, a
/// group id past its 128 characters.
pub const EXCERPT_CHARS: usize = 1024;

/// A bounded prefix of client input, for error messages.
pub fn excerpt(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!("{}...", &text[..end])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_of_a_missing_queue() {
        let err = SqsError::queue_does_not_exist();
        assert_eq!(
            err.query_header(),
            "AWS.SimpleQueueService.NonExistentQueue;Sender"
        );
        assert!(err.body().contains("com.amazonaws.sqs#QueueDoesNotExist"));
        assert_eq!(err.kind.http_status(), 400);
    }

    #[test]
    fn internal_errors_are_the_receivers_fault() {
        let err = SqsError::internal();
        assert_eq!(err.kind.http_status(), 500);
        assert!(err.query_header().ends_with(";Receiver"));
    }
}
