"""Starts the image of `sqsctl local` with Testcontainers for Python, as a project's test suite
would, and does a send/receive round trip through boto3.

    python scripts/testcontainers_check.py IMAGE

Needs a Docker API (DOCKER_HOST; scripts/image_check.sh points it at podman's socket, turns
Testcontainers' Ryuk sidecar off, since that image comes from a registry, and has it reach the
mapped port on this machine's loopback, since it may itself run in a container).
"""

import json
import sys
import urllib.request

import boto3
from testcontainers.core.container import DockerContainer
from testcontainers.core.wait_strategies import HttpWaitStrategy


def main() -> None:
    image = sys.argv[1] if len(sys.argv) > 1 else "sqsctl-local:latest"
    container = (
        DockerContainer(image)
        .with_exposed_ports(4566)
        .waiting_for(HttpWaitStrategy(4566, "/_sqsctl/health"))
    )
    with container:
        host = container.get_container_host_ip()
        port = container.get_exposed_port(4566)
        endpoint = f"http://{host}:{port}"
        with urllib.request.urlopen(f"{endpoint}/_sqsctl/health", timeout=5) as answer:
            health = json.load(answer)
        assert health == {"status": "ok"}, health

        sqs = boto3.client(
            "sqs",
            endpoint_url=endpoint,
            region_name="us-east-1",
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )
        url = sqs.create_queue(QueueName="jobs")["QueueUrl"]
        sent = sqs.send_message(QueueUrl=url, MessageBody="hello from testcontainers")
        received = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=5).get("Messages", [])
        assert [m["MessageId"] for m in received] == [sent["MessageId"]], received
        assert received[0]["Body"] == "hello from testcontainers", received
        sqs.delete_message(QueueUrl=url, ReceiptHandle=received[0]["ReceiptHandle"])
        print(f"testcontainers: {image} on {endpoint}, queue {url}, one message sent, received, deleted")


if __name__ == "__main__":
    main()
