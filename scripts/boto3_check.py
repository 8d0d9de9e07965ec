#!/usr/bin/env python3
"""Every action of `sqsctl local`, called through boto3 (the AWS SDK for Python).

The Rust tests drive the server through aws-sdk-sqs; this checks that a second, independent SDK
speaks to it just as well. Usage:

    scripts/boto3_check.py http://127.0.0.1:9324

It prints one line per action and exits non-zero at the first result that differs from what SQS
documents. `--expect-protocol query` (or `json`) also checks on the wire that every request boto3
sends is of that protocol: older boto3 releases (botocore before 1.34.90, e.g. boto3 1.28.57) speak
the Query protocol (`Action=...` form bodies, XML answers), current ones AWS JSON 1.0.

    scripts/boto3_check.py --expect-protocol query http://127.0.0.1:9324
"""

import hashlib
import json
import sys
import time
import urllib.request
import uuid

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError


def client(endpoint, expect_protocol=None):
    sqs = boto3.client(
        "sqs",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="local",
        aws_secret_access_key="local",
        config=Config(retries={"max_attempts": 2, "mode": "standard"}),
    )
    if expect_protocol:
        sqs.meta.events.register("before-send.sqs.*", wire_check(expect_protocol))
    return sqs


def wire_protocol(request):
    """The protocol of a request as it goes on the wire: its body and headers, not the model's claim."""
    body = request.body or b""
    if isinstance(body, str):
        body = body.encode()
    if request.headers.get("X-Amz-Target", b""):
        return "json"
    if body.startswith(b"Action="):
        return "query"
    return "unknown"


SENT = {"query": 0, "json": 0, "unknown": 0}


def wire_check(expected):
    def check_request(request, **_):
        seen = wire_protocol(request)
        SENT[seen] += 1
        if seen != expected:
            raise AssertionError(f"boto3 sent a {seen} request, expected {expected}: {request.body!r:.120}")

    return check_request


def system_attribute_names(sqs, names):
    """ReceiveMessage's system attribute names, under the parameter this botocore knows."""
    members = sqs.meta.service_model.operation_model("ReceiveMessage").input_shape.members
    if "MessageSystemAttributeNames" in members:
        return {"MessageSystemAttributeNames": names}
    return {"AttributeNames": names}


def receive_until(sqs, url, count, message_attribute_names, system_names):
    """Receives until `count` messages came (each kept in flight) or 10 seconds passed."""
    received = []
    deadline = time.time() + 10
    while len(received) < count and time.time() < deadline:
        got = sqs.receive_message(
            QueueUrl=url,
            MaxNumberOfMessages=10,
            WaitTimeSeconds=1,
            MessageAttributeNames=message_attribute_names,
            **system_attribute_names(sqs, system_names),
        )
        received.extend(got.get("Messages", []))
    return received


def check(condition, what):
    if not condition:
        raise AssertionError(what)


def is_localstack(endpoint):
    """Whether the endpoint is LocalStack, which answers its own health check."""
    try:
        with urllib.request.urlopen(endpoint.rstrip("/") + "/_localstack/health", timeout=5) as answer:
            return answer.status == 200
    except Exception:
        return False


LOCALSTACK = False


def check_sqs(condition, what):
    """A check of what SQS was recorded doing, where LocalStack is known to differ: on LocalStack
    a difference is printed, not failed."""
    if LOCALSTACK and not condition:
        print(f"note: LocalStack differs from SQS: {what}")
        return
    check(condition, what)


def error_code(call, *args, **kwargs):
    return error_of(call, *args, **kwargs)[0]


def error_of(call, *args, **kwargs):
    """The code, HTTP status and message of the error a call fails with."""
    try:
        call(*args, **kwargs)
    except ClientError as e:
        error = e.response["Error"]
        return error["Code"], e.response["ResponseMetadata"]["HTTPStatusCode"], error.get("Message")
    raise AssertionError(f"{call.__name__} succeeded where an error was expected")


def main(endpoint, expect_protocol=None):
    global LOCALSTACK
    LOCALSTACK = is_localstack(endpoint)
    sqs = client(endpoint, expect_protocol)
    run = uuid.uuid4().hex[:8]
    done = []

    def ok(action):
        done.append(action)
        print(f"ok  {action}")

    url = sqs.create_queue(QueueName=f"py-{run}", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    dlq_url = sqs.create_queue(QueueName=f"py-{run}-dlq")["QueueUrl"]
    fifo_url = sqs.create_queue(
        QueueName=f"py-{run}.fifo", Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"}
    )["QueueUrl"]
    ok("CreateQueue")

    check(sqs.get_queue_url(QueueName=f"py-{run}")["QueueUrl"] == url, "GetQueueUrl returns the URL")
    check(
        error_code(sqs.get_queue_url, QueueName=f"py-{run}-missing")
        in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"),
        "GetQueueUrl of a missing queue",
    )
    ok("GetQueueUrl")

    listed = sqs.list_queues(QueueNamePrefix=f"py-{run}", MaxResults=2)
    check(len(listed["QueueUrls"]) == 2 and "NextToken" in listed, "ListQueues pages")
    rest = sqs.list_queues(QueueNamePrefix=f"py-{run}", MaxResults=2, NextToken=listed["NextToken"])
    check(len(listed["QueueUrls"]) + len(rest["QueueUrls"]) == 3, "ListQueues second page")
    ok("ListQueues")

    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    sqs.set_queue_attributes(
        QueueUrl=url,
        Attributes={"RedrivePolicy": f'{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":"1"}}'},
    )
    ok("SetQueueAttributes")
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    check(attrs["VisibilityTimeout"] == "30" and "RedrivePolicy" in attrs, "GetQueueAttributes")
    ok("GetQueueAttributes")

    sqs.tag_queue(QueueUrl=url, Tags={"team": "payments", "env": "dev"})
    ok("TagQueue")
    sqs.untag_queue(QueueUrl=url, TagKeys=["env"])
    ok("UntagQueue")
    check(sqs.list_queue_tags(QueueUrl=url)["Tags"] == {"team": "payments"}, "ListQueueTags")
    ok("ListQueueTags")

    # A permission is a statement of the queue's Policy, its label the Sid (SQS writes the actions
    # with the SQS: prefix, the accounts as root ARNs).
    share = dict(QueueUrl=url, Label="py-share", AWSAccountIds=["111122223333"])
    sqs.add_permission(**share, Actions=["SendMessage", "ReceiveMessage"])
    policy = json.loads(sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"])["Attributes"]["Policy"])
    statement = policy["Statement"][0]
    check(
        statement["Sid"] == "py-share"
        and statement["Action"] == ["SQS:SendMessage", "SQS:ReceiveMessage"]
        and statement["Principal"] == {"AWS": "arn:aws:iam::111122223333:root"},
        f"AddPermission wrote {statement}",
    )
    check(
        error_code(sqs.add_permission, **share, Actions=["SendMessage"]) == "InvalidParameterValue",
        "a label used twice",
    )
    ok("AddPermission")
    sqs.remove_permission(QueueUrl=url, Label="py-share")
    after = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["Policy"]).get("Attributes", {})
    check("Policy" not in after, "no Policy once its last statement is removed")
    check(
        error_code(sqs.remove_permission, QueueUrl=url, Label="py-share") == "InvalidParameterValue",
        "RemovePermission of an unknown label",
    )
    ok("RemovePermission")

    # A carriage return and markup survive XML answers only when escaped; the MD5s must still match.
    body = "héllo\r\n<b>&amp;</b>"
    sent = sqs.send_message(
        QueueUrl=url,
        MessageBody=body,
        MessageAttributes={
            "kind": {"DataType": "String", "StringValue": "greeting"},
            "raw": {"DataType": "Binary", "BinaryValue": b"\x00\x01\xff"},
        },
    )
    check(sent["MD5OfMessageBody"] == hashlib.md5(body.encode()).hexdigest(), "MD5 of the body")
    check("MD5OfMessageAttributes" in sent, "MD5 of the message attributes")
    ok("SendMessage")
    batch = sqs.send_message_batch(
        QueueUrl=url, Entries=[{"Id": str(i), "MessageBody": f"b{i}"} for i in range(3)]
    )
    check(len(batch.get("Successful", [])) == 3, "SendMessageBatch")
    # SQS leaves an empty list out: code that reads batch["Failed"] breaks on SQS.
    check("Failed" not in batch, "a SendMessageBatch without failures has no Failed key")
    ok("SendMessageBatch")

    received = receive_until(sqs, url, 4, ["All"], ["ApproximateReceiveCount", "SentTimestamp"])
    check(len(received) == 4, f"ReceiveMessage got {len(received)} of 4")
    first = next(m for m in received if m["Body"] == body)
    check(first["MessageAttributes"]["kind"]["StringValue"] == "greeting", "message attributes")
    check(first["MessageAttributes"]["raw"]["BinaryValue"] == b"\x00\x01\xff", "binary message attributes")
    check(first["MD5OfMessageAttributes"] == sent["MD5OfMessageAttributes"], "MD5 of the received attributes")
    check(first["MD5OfBody"] == sent["MD5OfMessageBody"], "MD5 of the received body")
    check(first["Attributes"]["ApproximateReceiveCount"] == "1", "receive count")
    ok("ReceiveMessage")

    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"], VisibilityTimeout=60)
    ok("ChangeMessageVisibility")
    others = [m for m in received if m is not first]
    changed = sqs.change_message_visibility_batch(
        QueueUrl=url,
        Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"], "VisibilityTimeout": 60} for i, m in enumerate(others)],
    )
    check(len(changed.get("Successful", [])) == len(others), "ChangeMessageVisibilityBatch")
    # LocalStack differs: its JSON answer has "Failed": [].
    check_sqs("Failed" not in changed, "a ChangeMessageVisibilityBatch without failures has no Failed key")
    ok("ChangeMessageVisibilityBatch")

    sqs.delete_message(QueueUrl=url, ReceiptHandle=first["ReceiptHandle"])
    ok("DeleteMessage")
    deleted = sqs.delete_message_batch(
        QueueUrl=url, Entries=[{"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(others)]
    )
    check(len(deleted.get("Successful", [])) == len(others), "DeleteMessageBatch")
    # LocalStack differs: its JSON answer has "Failed": [].
    check_sqs("Failed" not in deleted, "a DeleteMessageBatch without failures has no Failed key")
    ok("DeleteMessageBatch")

    sqs.send_message(QueueUrl=fifo_url, MessageBody="f1", MessageGroupId="g")
    sqs.send_message(QueueUrl=fifo_url, MessageBody="f1", MessageGroupId="g")
    fifo_depth = sqs.get_queue_attributes(QueueUrl=fifo_url, AttributeNames=["ApproximateNumberOfMessages"])
    check(fifo_depth["Attributes"]["ApproximateNumberOfMessages"] == "1", "content-based deduplication")
    check(
        error_of(sqs.send_message, QueueUrl=fifo_url, MessageBody="no group")
        == ("MissingParameter", 400, "The request must contain the parameter MessageGroupId."),
        "FIFO send without a group id",
    )
    check(
        error_of(sqs.receive_message, QueueUrl=fifo_url, MaxNumberOfMessages=11)
        == (
            "InvalidParameterValue",
            400,
            "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.",
        ),
        "ReceiveMessage of 11 messages",
    )

    # SQS refuses a FIFO batch whose entry lacks a group id as a whole, and names the entry type of
    # an empty batch.
    check(
        error_code(sqs.send_message_batch, QueueUrl=fifo_url, Entries=[{"Id": "a", "MessageBody": "x"}])
        == "InvalidParameterValue",
        "FIFO batch entry without a group id",
    )
    try:
        sqs.send_message_batch(QueueUrl=url, Entries=[])
        raise AssertionError("an empty SendMessageBatch succeeded")
    except ClientError as e:
        error = e.response["Error"]
        # LocalStack differs: its EmptyBatchRequest has no message.
        check(
            error["Code"] in ("AWS.SimpleQueueService.EmptyBatchRequest", "EmptyBatchRequest")
            and error.get("Message", "") in ("", "There should be at least one SendMessageBatchRequestEntry in the request."),
            f"empty batch: {error}",
        )

    # The X-Amzn-Trace-Id header of a send becomes each message's AWSTraceHeader; MessageAttributeNames
    # `Hel.*` returns the names starting with Hel, with their own MD5 (the digest SQS answered).
    trace = "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1"

    def add_trace(request, **_):
        request.headers["X-Amzn-Trace-Id"] = trace

    traced_url = sqs.create_queue(QueueName=f"py-{run}-traced")["QueueUrl"]
    for action in ("SendMessage", "SendMessageBatch"):
        sqs.meta.events.register(f"before-send.sqs.{action}", add_trace)
    try:
        sqs.send_message(
            QueueUrl=traced_url,
            MessageBody="traced",
            MessageAttributes={
                name: {"DataType": "String", "StringValue": value}
                for name, value in (("Help.Me", "Me"), ("Hello", "There"), ("General", "Kenobi"))
            },
        )
        sqs.send_message_batch(QueueUrl=traced_url, Entries=[{"Id": "b", "MessageBody": "traced in a batch"}])
    finally:
        for action in ("SendMessage", "SendMessageBatch"):
            sqs.meta.events.unregister(f"before-send.sqs.{action}", add_trace)
    traced = {m["Body"]: m for m in receive_until(sqs, traced_url, 2, ["Hel.*"], ["AWSTraceHeader"])}
    check(
        all(m.get("Attributes", {}).get("AWSTraceHeader") == trace for m in traced.values()) and len(traced) == 2,
        f"AWSTraceHeader from X-Amzn-Trace-Id: {traced}",
    )
    named = traced.get("traced", {})
    check(sorted(named.get("MessageAttributes", {})) == ["Hello", "Help.Me"], f"MessageAttributeNames Hel.*: {named}")
    check(named.get("MD5OfMessageAttributes") == "83fee93c1bcd8b9a5a923ffacdc636c7", "MD5 of the attributes returned")
    sqs.delete_queue(QueueUrl=traced_url)

    # A FIFO receipt handle expires with its visibility timeout: SQS refuses the delete.
    expiry_url = sqs.create_queue(
        QueueName=f"py-{run}-expiry.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": "1"},
    )["QueueUrl"]
    sqs.send_message(QueueUrl=expiry_url, MessageBody="late", MessageGroupId="g")
    late = sqs.receive_message(QueueUrl=expiry_url, WaitTimeSeconds=1)["Messages"][0]
    time.sleep(2.5)
    check(
        error_code(sqs.delete_message, QueueUrl=expiry_url, ReceiptHandle=late["ReceiptHandle"])
        == "InvalidParameterValue",
        "DeleteMessage with an expired FIFO receipt handle",
    )
    sqs.delete_queue(QueueUrl=expiry_url)

    # Two receives with maxReceiveCount 1 put a message into the dead-letter queue.
    sqs.send_message(QueueUrl=url, MessageBody="poison")
    sqs.receive_message(QueueUrl=url, VisibilityTimeout=0, WaitTimeSeconds=1)
    sqs.receive_message(QueueUrl=url, VisibilityTimeout=0, WaitTimeSeconds=1)
    sources = sqs.list_dead_letter_source_queues(QueueUrl=dlq_url)["queueUrls"]
    check(sources == [url], "ListDeadLetterSourceQueues")
    ok("ListDeadLetterSourceQueues")
    dlq_depth = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["ApproximateNumberOfMessages"])
    check(dlq_depth["Attributes"]["ApproximateNumberOfMessages"] == "1", "message moved to the DLQ")

    src_arn = dlq_arn
    task = sqs.start_message_move_task(SourceArn=src_arn, MaxNumberOfMessagesPerSecond=1)
    ok("StartMessageMoveTask")
    tasks = sqs.list_message_move_tasks(SourceArn=src_arn)["Results"]
    check(tasks and tasks[0]["Status"] in ("RUNNING", "COMPLETED", "CANCELLING", "CANCELLED"), "ListMessageMoveTasks")
    ok("ListMessageMoveTasks")
    if tasks[0]["Status"] == "RUNNING":
        sqs.cancel_message_move_task(TaskHandle=task["TaskHandle"])
    else:
        check(
            error_code(sqs.cancel_message_move_task, TaskHandle=task["TaskHandle"]) == "ResourceNotFoundException",
            "cancel of a finished task",
        )
    ok("CancelMessageMoveTask")

    sqs.purge_queue(QueueUrl=fifo_url)
    code, status, _ = error_of(sqs.purge_queue, QueueUrl=fifo_url)
    check(
        code in ("AWS.SimpleQueueService.PurgeQueueInProgress", "PurgeQueueInProgress") and status == 403,
        f"second purge within 60 s: {code}, HTTP {status} (SQS: 403)",
    )
    ok("PurgeQueue")

    for queue in (url, dlq_url, fifo_url):
        sqs.delete_queue(QueueUrl=queue)
    check(
        error_code(sqs.get_queue_attributes, QueueUrl=url, AttributeNames=["All"])
        in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"),
        "a deleted queue is gone",
    )
    ok("DeleteQueue")

    raw_code = error_code(sqs.send_message, QueueUrl=f"{endpoint}/000000000000/py-{run}-nope", MessageBody="x")
    check(raw_code in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"), "send to a missing queue")
    protocol = sqs.meta.service_model.protocol
    wire = f", {SENT[expect_protocol]} requests checked on the wire" if expect_protocol else ""
    print(f"boto3 {boto3.__version__} ({protocol} protocol{wire}): {len(done)} actions ok against {endpoint}")


if __name__ == "__main__":
    args = sys.argv[1:]
    expected = None
    if len(args) == 3 and args[0] == "--expect-protocol" and args[1] in ("query", "json"):
        expected, args = args[1], args[2:]
    if len(args) != 1:
        sys.exit("usage: boto3_check.py [--expect-protocol query|json] ENDPOINT")
    try:
        main(args[0], expected)
    except (AssertionError, ClientError) as e:
        sys.exit(f"FAILED: {e}")
