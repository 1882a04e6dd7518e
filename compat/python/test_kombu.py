"""kombu's SQS transport, Celery's broker, broadcasting through a fanout exchange: kombu maps
the exchange to an SNS topic (CreateTopic with FifoTopic=false, by every connection that
declares it) and each bound queue to a raw SQS subscription of that topic."""

import socket
import uuid
from urllib.parse import urlsplit

from kombu import Connection, Consumer, Exchange, Producer, Queue

from conftest import queue_arn


def connect(endpoint):
    """A kombu connection to sqslite: the URL's host and port become the boto3 endpoint (plain
    http when is_secure is false), its user and password the credentials."""
    url = urlsplit(endpoint)
    return Connection(
        f"sqs://test:test@{url.hostname}:{url.port}",
        transport_options={
            "region": "us-east-1",
            "is_secure": False,
            # Off by default: without it a fanout exchange delivers nowhere.
            "supports_fanout": True,
            # Short polls, so that a drain returns as soon as the broadcast is in.
            "wait_time_seconds": 1,
            "polling_interval": 0.1,
            # No retries: a retried request would hide a failure.
            "client-config": {"retries": {"max_attempts": 1, "mode": "standard"}},
        },
    )


def test_kombu_fanout_broadcast(endpoint, sqs, sns):
    name = f"compat-kombu-{uuid.uuid4().hex[:12]}"
    exchange = Exchange(name, type="fanout")
    queues = [Queue(f"{name}-{label}", exchange=exchange) for label in ("a", "b")]
    received = {queue.name: [] for queue in queues}
    try:
        with connect(endpoint) as first, connect(endpoint) as second:
            connections = [first, second]
            consumers = []
            for conn, queue in zip(connections, queues):

                def on_message(body, message, queue=queue.name):
                    received[queue].append((body, message.delivery_info.get("exchange")))
                    message.ack()

                # Declaring binds the queue, which creates the exchange's topic (the second
                # connection creates the same topic again); consuming subscribes the queue.
                consumer = Consumer(conn.channel(), [queue], callbacks=[on_message], accept=["json"])
                consumer.consume()
                consumers.append(consumer)

            Producer(first.channel()).publish(
                {"broadcast": "to all"}, exchange=exchange, serializer="json"
            )
            for conn in connections:
                try:
                    conn.drain_events(timeout=5)
                except socket.timeout:
                    pass  # the assertion below names the queue that got nothing
            for consumer in consumers:
                consumer.cancel()

        assert received == {queue.name: [({"broadcast": "to all"}, name)] for queue in queues}

        # One topic, one raw subscription per queue, and nothing left in either queue.
        (topic,) = [
            t["TopicArn"] for t in sns.list_topics()["Topics"] if t["TopicArn"].endswith(":" + name)
        ]
        urls = {queue.name: sqs.get_queue_url(QueueName=queue.name)["QueueUrl"] for queue in queues}
        subscriptions = sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
        assert sorted(s["Endpoint"] for s in subscriptions) == sorted(
            queue_arn(sqs, url) for url in urls.values()
        )
        for s in subscriptions:
            attributes = sns.get_subscription_attributes(SubscriptionArn=s["SubscriptionArn"])
            assert attributes["Attributes"]["RawMessageDelivery"] == "true"
        for url in urls.values():
            counts = sqs.get_queue_attributes(
                QueueUrl=url,
                AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
            )["Attributes"]
            assert counts == {
                "ApproximateNumberOfMessages": "0",
                "ApproximateNumberOfMessagesNotVisible": "0",
            }
    finally:
        for t in sns.list_topics()["Topics"]:
            if t["TopicArn"].endswith(":" + name):
                sns.delete_topic(TopicArn=t["TopicArn"])
        for queue in queues:
            try:
                sqs.delete_queue(QueueUrl=sqs.get_queue_url(QueueName=queue.name)["QueueUrl"])
            except sqs.exceptions.QueueDoesNotExist:
                pass
