"""Two accounts on one server (`[[credentials]]` in python/accounts.toml), through boto3: account
B's topic delivers into account A's queue as on AWS ("Sending Amazon SNS messages to an Amazon SQS
queue in a different account"). The subscription is pending until A, the queue's owner, reads the
SubscriptionConfirmation from the queue and confirms it with its own client; only a queue Policy
letting B's topic in gets the confirmation and the notifications; a Deny for B binds B."""

import base64
import json
import re
import uuid

import pytest
from botocore.exceptions import ClientError

from conftest import sns_client, sqs_client

A, B = "111111111111", "222222222222"
KEYS = {A: ("AKIDTEAMA", "team-a-secret"), B: ("AKIDTEAMB", "team-b-secret")}
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
CONFIRMATION_KEYS = sorted(
    ["Type", "MessageId", "Token", "TopicArn", "Message", "SubscribeURL", "Timestamp",
     "SignatureVersion", "Signature", "SigningCertURL"]
)
NOTIFICATION_KEYS = sorted(
    ["Type", "MessageId", "TopicArn", "Message", "Timestamp", "SignatureVersion", "Signature",
     "SigningCertURL", "UnsubscribeURL"]
)


class Account:
    """One account's SQS and SNS clients, signing with its key, and what it made."""

    def __init__(self, endpoint, account):
        self.id = account
        key, secret = KEYS[account]
        self.sqs = sqs_client(endpoint, key, secret)
        self.sns = sns_client(endpoint, key, secret)
        self.queues, self.topics = [], []

    def queue(self, name, policy=None):
        attributes = {"Policy": json.dumps(policy)} if policy else {}
        url = self.sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        self.queues.append(url)
        return url

    def topic(self, name):
        arn = self.sns.create_topic(Name=name)["TopicArn"]
        self.topics.append(arn)
        return arn

    def clean_up(self):
        for arn in self.topics:
            self.sns.delete_topic(TopicArn=arn)
        for url in self.queues:
            self.sqs.delete_queue(QueueUrl=url)


@pytest.fixture
def team_a(endpoint):
    account = Account(endpoint, A)
    yield account
    account.clean_up()


@pytest.fixture
def team_b(endpoint):
    account = Account(endpoint, B)
    yield account
    account.clean_up()


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def queue_arn(name, account=A):
    return f"arn:aws:sqs:us-east-1:{account}:{name}"


def topic_arn(name, account=B):
    return f"arn:aws:sns:us-east-1:{account}:{name}"


def sns_may_send(queue, topic):
    """The queue Policy AWS's guide gives: SNS may send the topic's messages into the queue."""
    return {
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "topic-to-queue",
            "Effect": "Allow",
            "Principal": {"Service": "sns.amazonaws.com"},
            "Action": "sqs:SendMessage",
            "Resource": queue,
            "Condition": {"ArnEquals": {"aws:SourceArn": topic}},
        }],
    }


def receive(account, url, wait=5):
    """Every message the queue holds, each deleted: receives until one comes back empty."""
    got = []
    for _ in range(10):
        batch = account.sqs.receive_message(
            QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=wait if not got else 0,
        ).get("Messages", [])
        if not batch:
            return got
        got.extend(batch)
        for m in batch:
            account.sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])
    pytest.fail(f"{url} never ran dry")


def listed(account, topic):
    return {
        s["Endpoint"]: s
        for s in account.sns.list_subscriptions_by_topic(TopicArn=topic)["Subscriptions"]
    }


def check_signed(endpoint, envelope):
    assert TIMESTAMP.match(envelope["Timestamp"]), envelope["Timestamp"]
    assert envelope["SignatureVersion"] == "1"
    assert len(base64.b64decode(envelope["Signature"], validate=True)) > 0
    assert envelope["SigningCertURL"].startswith(endpoint + "/")
    assert envelope["SigningCertURL"].endswith(".pem")


def test_cross_account_subscription_confirmed_by_queue_owner(endpoint, team_a, team_b):
    queue, topic = "qa", "tb"
    url = team_a.queue(queue, sns_may_send(queue_arn(queue), topic_arn(topic)))
    assert team_a.sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"] == queue_arn(queue)
    tb = team_b.topic(topic)
    assert tb == topic_arn(topic)

    # B subscribes A's queue: pending until A confirms, as an http endpoint would be.
    answer = team_b.sns.subscribe(TopicArn=tb, Protocol="sqs", Endpoint=queue_arn(queue))
    assert answer["SubscriptionArn"] == "pending confirmation"
    pending = listed(team_b, tb)[queue_arn(queue)]
    assert pending["SubscriptionArn"] == "PendingConfirmation"
    assert (pending["Protocol"], pending["Owner"]) == ("sqs", B)
    # A pending subscription gets nothing that is published.
    team_b.sns.publish(TopicArn=tb, Message="too early")

    # The queue holds the SubscriptionConfirmation alone, SNS's JSON document.
    (message,) = receive(team_a, url)
    confirmation = json.loads(message["Body"])
    assert sorted(confirmation) == CONFIRMATION_KEYS
    assert confirmation["Type"] == "SubscriptionConfirmation"
    assert confirmation["TopicArn"] == tb
    assert re.fullmatch(r"[0-9a-f]+", confirmation["Token"]), confirmation["Token"]
    assert confirmation["Message"] == (
        f"You have chosen to subscribe to the topic {tb}.\n"
        "To confirm the subscription, visit the SubscribeURL included in this message."
    )
    assert confirmation["SubscribeURL"] == (
        f"{endpoint}/?Action=ConfirmSubscription&TopicArn={tb}&Token={confirmation['Token']}"
    )
    check_signed(endpoint, confirmation)

    # A confirms with its own client and the token it read.
    sub = team_a.sns.confirm_subscription(TopicArn=tb, Token=confirmation["Token"])[
        "SubscriptionArn"
    ]
    assert sub.startswith(tb + ":"), sub
    assert listed(team_b, tb)[queue_arn(queue)]["SubscriptionArn"] == sub
    attributes = team_b.sns.get_subscription_attributes(SubscriptionArn=sub)["Attributes"]
    assert attributes["PendingConfirmation"] == "false"
    assert attributes["ConfirmationWasAuthenticated"] == "true"
    assert attributes["Endpoint"] == queue_arn(queue)

    # Now B's publish reaches A's queue, as SNS's notification.
    message_id = team_b.sns.publish(TopicArn=tb, Message="hello")["MessageId"]
    (message,) = receive(team_a, url)
    notification = json.loads(message["Body"])
    assert sorted(notification) == NOTIFICATION_KEYS
    assert notification["Type"] == "Notification"
    assert notification["MessageId"] == message_id
    assert notification["TopicArn"] == tb
    assert notification["Message"] == "hello"
    assert notification["UnsubscribeURL"] == (
        f"{endpoint}/?Action=Unsubscribe&SubscriptionArn={sub}"
    )
    check_signed(endpoint, notification)


def test_cross_account_queue_without_policy_stays_pending(team_a, team_b):
    name = unique("qa-nopolicy")
    url = team_a.queue(name)
    tb = team_b.topic(unique("tb-nopolicy"))
    answer = team_b.sns.subscribe(TopicArn=tb, Protocol="sqs", Endpoint=queue_arn(name))
    assert answer["SubscriptionArn"] == "pending confirmation"

    # No Policy lets B's topic in: neither the SubscriptionConfirmation nor the publish arrives,
    # so A has no token to confirm with and the subscription stays pending.
    team_b.sns.publish(TopicArn=tb, Message="hello")
    assert receive(team_a, url, wait=2) == []
    assert listed(team_b, tb)[queue_arn(name)]["SubscriptionArn"] == "PendingConfirmation"
    attributes = team_a.sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages"]
    )["Attributes"]
    assert attributes["ApproximateNumberOfMessages"] == "0"


def test_cross_account_deny_binds_the_other_account(team_a, team_b):
    name = unique("qa-deny")
    arn = queue_arn(name)
    url = team_a.queue(name, {
        "Version": "2012-10-17",
        "Statement": [
            {"Sid": "b-may-use", "Effect": "Allow", "Principal": {"AWS": B},
             "Action": ["sqs:SendMessage", "sqs:ReceiveMessage"], "Resource": arn},
            {"Sid": "b-may-not-read", "Effect": "Deny", "Principal": {"AWS": B},
             "Action": "sqs:ReceiveMessage", "Resource": arn},
        ],
    })
    # The Allow lets B send; the Deny wins over it for ReceiveMessage.
    team_b.sqs.send_message(QueueUrl=url, MessageBody="from B")
    with pytest.raises(ClientError) as refused:
        team_b.sqs.receive_message(QueueUrl=url)
    error = refused.value.response["Error"]
    assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    assert error["Code"] == "AccessDenied"
    assert error["Message"] == (
        f"User: arn:aws:iam::{B}:root is not authorized to perform: sqs:receivemessage on "
        f"resource: {arn} with an explicit deny in a resource-based policy"
    )
    # The Deny names B only: the owner still reads what B sent.
    (message,) = receive(team_a, url)
    assert message["Body"] == "from B"
