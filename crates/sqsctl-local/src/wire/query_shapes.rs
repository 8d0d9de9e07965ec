//! The shapes of every action's input and output in the Query protocol (API version 2012-11-05):
//! which JSON member each form parameter or XML element stands for, and how lists and maps are
//! spelled. They follow the SQS service model that Query-era SDKs were generated from, where every
//! list and map is "flattened" (`AttributeName.1`, `Attribute.1.Name`, repeated `<Message>`).
//!
//! Only the names live here; the codec in [`crate::wire::query`] walks these tables in both directions.

/// How one value is spelled.
#[derive(Debug)]
pub enum Shape {
    Str,
    Int,
    Bool,
    /// A flattened list: `Member.1`, `Member.2`, ... in requests (also `Member.member.N`), the
    /// member's element repeated in responses.
    List(&'static Shape),
    /// A flattened map: `Member.N.<key>` and `Member.N.<value>`.
    Map {
        key: &'static str,
        value: &'static str,
        of: &'static Shape,
    },
    Struct(&'static [Member]),
}

/// One member of a structure: its JSON name, its Query name, and its shape.
#[derive(Debug)]
pub struct Member {
    pub json: &'static str,
    pub query: &'static str,
    pub shape: Shape,
}

const fn m(json: &'static str, shape: Shape) -> Member {
    Member {
        json,
        query: json,
        shape,
    }
}

const fn named(json: &'static str, query: &'static str, shape: Shape) -> Member {
    Member { json, query, shape }
}

const STR: Shape = Shape::Str;

const fn string_map(key: &'static str) -> Shape {
    Shape::Map {
        key,
        value: "Value",
        of: &STR,
    }
}

const QUEUE_URL: Member = m("QueueUrl", Shape::Str);

const ATTRIBUTE_VALUE: Shape = Shape::Struct(&[
    m("DataType", Shape::Str),
    m("StringValue", Shape::Str),
    m("BinaryValue", Shape::Str),
    named("StringListValues", "StringListValue", Shape::List(&STR)),
    named("BinaryListValues", "BinaryListValue", Shape::List(&STR)),
]);

const fn attribute_map() -> Shape {
    Shape::Map {
        key: "Name",
        value: "Value",
        of: &ATTRIBUTE_VALUE,
    }
}

/// The members of a message to send, after the given leading ones (a queue URL or an entry id).
macro_rules! send_members {
    ($($leading:expr),*) => {
        &[
            $($leading,)*
            m("MessageBody", Shape::Str),
            m("DelaySeconds", Shape::Int),
            named("MessageAttributes", "MessageAttribute", attribute_map()),
            named(
                "MessageSystemAttributes",
                "MessageSystemAttribute",
                attribute_map(),
            ),
            m("MessageDeduplicationId", Shape::Str),
            m("MessageGroupId", Shape::Str),
        ]
    };
}

const SEND_ENTRY: &[Member] = send_members!(m("Id", Shape::Str));
const SEND_MESSAGE: &[Member] = send_members!(QUEUE_URL);

const SEND_RESULT: &[Member] = &[
    m("Id", Shape::Str),
    m("MessageId", Shape::Str),
    m("MD5OfMessageBody", Shape::Str),
    m("MD5OfMessageAttributes", Shape::Str),
    m("MD5OfMessageSystemAttributes", Shape::Str),
    m("SequenceNumber", Shape::Str),
];

const HANDLE_ENTRY: &[Member] = &[
    m("Id", Shape::Str),
    m("ReceiptHandle", Shape::Str),
    m("VisibilityTimeout", Shape::Int),
];

const BATCH_ERROR: Member = named(
    "Failed",
    "BatchResultErrorEntry",
    Shape::List(&Shape::Struct(&[
        m("Id", Shape::Str),
        m("SenderFault", Shape::Bool),
        m("Code", Shape::Str),
        m("Message", Shape::Str),
    ])),
);

const ID_ONLY: Shape = Shape::Struct(&[m("Id", Shape::Str)]);

const MESSAGE: Shape = Shape::Struct(&[
    m("MessageId", Shape::Str),
    m("ReceiptHandle", Shape::Str),
    m("MD5OfBody", Shape::Str),
    m("Body", Shape::Str),
    named("Attributes", "Attribute", string_map("Name")),
    m("MD5OfMessageAttributes", Shape::Str),
    named("MessageAttributes", "MessageAttribute", attribute_map()),
]);

const MOVE_TASK: Shape = Shape::Struct(&[
    m("TaskHandle", Shape::Str),
    m("Status", Shape::Str),
    m("SourceArn", Shape::Str),
    m("DestinationArn", Shape::Str),
    m("MaxNumberOfMessagesPerSecond", Shape::Int),
    m("ApproximateNumberOfMessagesMoved", Shape::Int),
    m("ApproximateNumberOfMessagesToMove", Shape::Int),
    m("FailureReason", Shape::Str),
    m("StartedTimestamp", Shape::Int),
]);

const PAGE_IN: &[Member] = &[
    QUEUE_URL,
    m("QueueNamePrefix", Shape::Str),
    m("MaxResults", Shape::Int),
    m("NextToken", Shape::Str),
];

/// The input and output members of one action.
#[derive(Debug)]
pub struct Action {
    pub input: &'static [Member],
    pub output: &'static [Member],
}

/// Every action of the server, with its shapes.
const ACTIONS: &[(&[&str], Action)] = &[
    (
        &["CreateQueue"],
        Action {
            input: &[
                m("QueueName", Shape::Str),
                named("Attributes", "Attribute", string_map("Name")),
                named("tags", "Tag", string_map("Key")),
            ],
            output: &[QUEUE_URL],
        },
    ),
    (
        &["GetQueueUrl"],
        Action {
            input: &[
                m("QueueName", Shape::Str),
                m("QueueOwnerAWSAccountId", Shape::Str),
            ],
            output: &[QUEUE_URL],
        },
    ),
    (
        &["DeleteQueue", "PurgeQueue"],
        Action {
            input: &[QUEUE_URL],
            output: &[],
        },
    ),
    (
        &["ListQueues"],
        Action {
            input: PAGE_IN,
            output: &[
                named("QueueUrls", "QueueUrl", Shape::List(&STR)),
                m("NextToken", Shape::Str),
            ],
        },
    ),
    (
        &["ListDeadLetterSourceQueues"],
        Action {
            input: PAGE_IN,
            output: &[
                named("queueUrls", "QueueUrl", Shape::List(&STR)),
                m("NextToken", Shape::Str),
            ],
        },
    ),
    (
        &["GetQueueAttributes"],
        Action {
            input: &[
                QUEUE_URL,
                named("AttributeNames", "AttributeName", Shape::List(&STR)),
            ],
            output: &[named("Attributes", "Attribute", string_map("Name"))],
        },
    ),
    (
        &["SetQueueAttributes"],
        Action {
            input: &[
                QUEUE_URL,
                named("Attributes", "Attribute", string_map("Name")),
            ],
            output: &[],
        },
    ),
    (
        &["TagQueue"],
        Action {
            input: &[QUEUE_URL, named("Tags", "Tag", string_map("Key"))],
            output: &[],
        },
    ),
    (
        &["UntagQueue"],
        Action {
            input: &[QUEUE_URL, named("TagKeys", "TagKey", Shape::List(&STR))],
            output: &[],
        },
    ),
    (
        &["ListQueueTags"],
        Action {
            input: &[QUEUE_URL],
            output: &[named("Tags", "Tag", string_map("Key"))],
        },
    ),
    (
        &["SendMessage"],
        Action {
            input: SEND_MESSAGE,
            output: SEND_RESULT,
        },
    ),
    (
        &["SendMessageBatch"],
        Action {
            input: &[
                QUEUE_URL,
                named(
                    "Entries",
                    "SendMessageBatchRequestEntry",
                    Shape::List(&Shape::Struct(SEND_ENTRY)),
                ),
            ],
            output: &[
                named(
                    "Successful",
                    "SendMessageBatchResultEntry",
                    Shape::List(&Shape::Struct(SEND_RESULT)),
                ),
                BATCH_ERROR,
            ],
        },
    ),
    (
        &["ReceiveMessage"],
        Action {
            input: &[
                QUEUE_URL,
                named("AttributeNames", "AttributeName", Shape::List(&STR)),
                named(
                    "MessageSystemAttributeNames",
                    "MessageSystemAttributeName",
                    Shape::List(&STR),
                ),
                named(
                    "MessageAttributeNames",
                    "MessageAttributeName",
                    Shape::List(&STR),
                ),
                m("MaxNumberOfMessages", Shape::Int),
                m("VisibilityTimeout", Shape::Int),
                m("WaitTimeSeconds", Shape::Int),
                m("ReceiveRequestAttemptId", Shape::Str),
            ],
            output: &[named("Messages", "Message", Shape::List(&MESSAGE))],
        },
    ),
    (
        &["DeleteMessage", "ChangeMessageVisibility"],
        Action {
            input: &[
                QUEUE_URL,
                m("ReceiptHandle", Shape::Str),
                m("VisibilityTimeout", Shape::Int),
            ],
            output: &[],
        },
    ),
    (
        &["DeleteMessageBatch"],
        Action {
            input: &[
                QUEUE_URL,
                named(
                    "Entries",
                    "DeleteMessageBatchRequestEntry",
                    Shape::List(&Shape::Struct(HANDLE_ENTRY)),
                ),
            ],
            output: &[
                named(
                    "Successful",
                    "DeleteMessageBatchResultEntry",
                    Shape::List(&ID_ONLY),
                ),
                BATCH_ERROR,
            ],
        },
    ),
    (
        &["ChangeMessageVisibilityBatch"],
        Action {
            input: &[
                QUEUE_URL,
                named(
                    "Entries",
                    "ChangeMessageVisibilityBatchRequestEntry",
                    Shape::List(&Shape::Struct(HANDLE_ENTRY)),
                ),
            ],
            output: &[
                named(
                    "Successful",
                    "ChangeMessageVisibilityBatchResultEntry",
                    Shape::List(&ID_ONLY),
                ),
                BATCH_ERROR,
            ],
        },
    ),
    (
        &["StartMessageMoveTask"],
        Action {
            input: &[
                m("SourceArn", Shape::Str),
                m("DestinationArn", Shape::Str),
                m("MaxNumberOfMessagesPerSecond", Shape::Int),
            ],
            output: &[m("TaskHandle", Shape::Str)],
        },
    ),
    (
        &["ListMessageMoveTasks"],
        Action {
            input: &[m("SourceArn", Shape::Str), m("MaxResults", Shape::Int)],
            output: &[named(
                "Results",
                "ListMessageMoveTasksResultEntry",
                Shape::List(&MOVE_TASK),
            )],
        },
    ),
    (
        &["CancelMessageMoveTask"],
        Action {
            input: &[m("TaskHandle", Shape::Str)],
            output: &[m("ApproximateNumberOfMessagesMoved", Shape::Int)],
        },
    ),
    (
        &["AddPermission"],
        Action {
            input: &[
                QUEUE_URL,
                m("Label", Shape::Str),
                named("AWSAccountIds", "AWSAccountId", Shape::List(&STR)),
                named("Actions", "ActionName", Shape::List(&STR)),
            ],
            output: &[],
        },
    ),
    (
        &["RemovePermission"],
        Action {
            input: &[QUEUE_URL, m("Label", Shape::Str)],
            output: &[],
        },
    ),
];

/// The shapes of `action`, or `None` for an action SQS does not have.
pub fn action(action: &str) -> Option<&'static Action> {
    ACTIONS
        .iter()
        .find(|(names, _)| names.contains(&action))
        .map(|(_, shapes)| shapes)
}
