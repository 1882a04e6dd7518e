"""Every operation of botocore's SNS model, swept through boto3's SNS client (AWS Query).

Each operation sqslite serves is called with valid input; the call must raise nothing and the
parsed result must hold every output member of the operation's model shape (the members AWS
returns), nested list entries included, less the absences listed with their reason. The raw XML
of each answer is checked as well: botocore's Query parser finds a result by its
`<OpNameResult>` wrapper and fails with a bare KeyError when it is missing. Each operation sqslite
does not serve must answer InvalidAction. The sweep fails when the model has an operation that
is in neither list, so no operation can be skipped unnoticed.
"""

import http.server
import json
import queue
import threading
import uuid
import xml.etree.ElementTree as ET

import pytest
from botocore.exceptions import ClientError

from conftest import queue_arn, sns_client

# Operations sqslite answers with "The action X is not valid for this web service.": SMS,
# the SMS sandbox and mobile push (platform applications and their endpoints).
NOT_SERVED = [
    "CheckIfPhoneNumberIsOptedOut",
    "CreatePlatformApplication",
    "CreatePlatformEndpoint",
    "CreateSMSSandboxPhoneNumber",
    "DeleteEndpoint",
    "DeletePlatformApplication",
    "DeleteSMSSandboxPhoneNumber",
    "GetEndpointAttributes",
    "GetPlatformApplicationAttributes",
    "GetSMSAttributes",
    "GetSMSSandboxAccountStatus",
    "ListEndpointsByPlatformApplication",
    "ListOriginationNumbers",
    "ListPhoneNumbersOptedOut",
    "ListPlatformApplications",
    "ListSMSSandboxPhoneNumbers",
    "OptInPhoneNumber",
    "SetEndpointAttributes",
    "SetPlatformApplicationAttributes",
    "SetSMSAttributes",
    "VerifySMSSandboxPhoneNumber",
]

# Output members AWS legitimately leaves out of the answers below, each with its reason.
SHORT_LISTING = {"NextToken": "AWS sends NextToken only when more entries follow"}
STANDARD_TOPIC = "AWS numbers the messages of FIFO topics only"

# A data protection policy of the form SNS's developer guide shows: deny inbound messages that
# carry an e-mail address (an Audit statement would need a findings destination).
DATA_PROTECTION_POLICY = json.dumps(
    {
        "Name": "compat",
        "Description": "deny e-mail addresses",
        "Version": "2021-06-01",
        "Statement": [
            {
                "Sid": "deny-inbound",
                "DataDirection": "Inbound",
                "Principal": ["*"],
                "DataIdentifier": ["arn:aws:dataprotection::aws:data-identifier/EmailAddress"],
                "Operation": {"Deny": {}},
            }
        ],
    }
)

SERVED = {}


def serves(name):
    """Registers a sweep case: a generator that calls operation `name` and yields, per call,
    (what the call is, its parsed result, {absent member path: reason})."""

    def register(case):
        SERVED[name] = case
        return case

    return register


@pytest.fixture(scope="module")
def sns(endpoint):
    client = sns_client(endpoint)
    # The raw answer of each operation's latest call, kept before botocore parses it so that a
    # parser failure can still be explained by what the server sent.
    client.raw = {}

    def keep(operation_model, response_dict, **_):
        client.raw[operation_model.name] = response_dict

    client.meta.events.register("before-parse.sns", keep)
    return client


class World:
    """What the cases call against: topics and queues made on demand, removed afterwards."""

    def __init__(self, sns, sqs, make_queue):
        self.sns, self.sqs, self.make_queue = sns, sqs, make_queue
        self.topics = []

    def name(self):
        return f"compat-model-{uuid.uuid4().hex[:12]}"

    def create_topic(self, **params):
        out = self.sns.create_topic(**params)
        self.topics.append(out["TopicArn"])
        return out

    def topic(self, fifo=False):
        if fifo:
            name = self.name() + ".fifo"
            return self.create_topic(Name=name, Attributes={"FifoTopic": "true"})["TopicArn"]
        return self.create_topic(Name=self.name())["TopicArn"]

    def queue_arn(self, fifo=False):
        return queue_arn(self.sqs, self.make_queue("compat-model", fifo=fifo))

    def subscription(self, topic):
        return self.sns.subscribe(
            TopicArn=topic, Protocol="sqs", Endpoint=self.queue_arn(), ReturnSubscriptionArn=True
        )["SubscriptionArn"]


@pytest.fixture
def world(sns, sqs, make_queue):
    w = World(sns, sqs, make_queue)
    yield w
    for arn in w.topics:
        sns.delete_topic(TopicArn=arn)  # DeleteTopic of a topic already gone succeeds


@serves("CreateTopic")
def _(w):
    name = w.name()
    yield "a new standard topic", w.create_topic(Name=name), {}
    yield "the same name again", w.create_topic(Name=name), {}
    yield "a FIFO topic", w.create_topic(Name=name + ".fifo", Attributes={"FifoTopic": "true"}), {}


@serves("GetTopicAttributes")
def _(w):
    yield "a standard topic", w.sns.get_topic_attributes(TopicArn=w.topic()), {}


@serves("SetTopicAttributes")
def _(w):
    yield "DisplayName", w.sns.set_topic_attributes(
        TopicArn=w.topic(), AttributeName="DisplayName", AttributeValue="compat"
    ), {}


@serves("ListTopics")
def _(w):
    w.topic()
    yield "one page", w.sns.list_topics(), SHORT_LISTING


@serves("DeleteTopic")
def _(w):
    yield "a topic", w.sns.delete_topic(TopicArn=w.topic()), {}


@serves("TagResource")
def _(w):
    yield "a topic", w.sns.tag_resource(
        ResourceArn=w.topic(), Tags=[{"Key": "team", "Value": "compat"}]
    ), {}


@serves("UntagResource")
def _(w):
    # Tagged by CreateTopic, so that this case does not depend on TagResource's answer.
    topic = w.create_topic(Name=w.name(), Tags=[{"Key": "team", "Value": "compat"}])["TopicArn"]
    yield "a tagged topic", w.sns.untag_resource(ResourceArn=topic, TagKeys=["team"]), {}


@serves("ListTagsForResource")
def _(w):
    topic = w.create_topic(Name=w.name(), Tags=[{"Key": "team", "Value": "compat"}])["TopicArn"]
    yield "a tagged topic", w.sns.list_tags_for_resource(ResourceArn=topic), {}


@serves("AddPermission")
def _(w):
    yield "Publish for one account", w.sns.add_permission(
        TopicArn=w.topic(), Label="compat", AWSAccountId=["111122223333"], ActionName=["Publish"]
    ), {}


@serves("RemovePermission")
def _(w):
    topic = w.topic()
    w.sns.add_permission(
        TopicArn=topic, Label="compat", AWSAccountId=["111122223333"], ActionName=["Publish"]
    )
    yield "a label just added", w.sns.remove_permission(TopicArn=topic, Label="compat"), {}


@serves("Subscribe")
def _(w):
    topic = w.topic()
    yield "an sqs queue", w.sns.subscribe(
        TopicArn=topic, Protocol="sqs", Endpoint=w.queue_arn(), ReturnSubscriptionArn=True
    ), {}
    yield "an sqs queue, no ReturnSubscriptionArn", w.sns.subscribe(
        TopicArn=topic, Protocol="sqs", Endpoint=w.queue_arn()
    ), {}


class Hook(http.server.BaseHTTPRequestHandler):
    """An http endpoint that keeps the JSON body of every POST SNS sends it."""

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.received.put(json.loads(body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


@serves("ConfirmSubscription")
def _(w):
    hook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    hook.received = queue.Queue()
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    try:
        topic = w.topic()
        w.sns.subscribe(
            TopicArn=topic, Protocol="http", Endpoint=f"http://127.0.0.1:{hook.server_port}/"
        )
        confirmation = hook.received.get(timeout=10)
        assert confirmation["Type"] == "SubscriptionConfirmation", confirmation
        yield "the token sent to an http endpoint", w.sns.confirm_subscription(
            TopicArn=topic, Token=confirmation["Token"]
        ), {}
    finally:
        hook.shutdown()
        hook.server_close()


@serves("Unsubscribe")
def _(w):
    yield "an sqs subscription", w.sns.unsubscribe(SubscriptionArn=w.subscription(w.topic())), {}


@serves("ListSubscriptions")
def _(w):
    w.subscription(w.topic())
    yield "one page", w.sns.list_subscriptions(), SHORT_LISTING


@serves("ListSubscriptionsByTopic")
def _(w):
    topic = w.topic()
    w.subscription(topic)
    yield "one page", w.sns.list_subscriptions_by_topic(TopicArn=topic), SHORT_LISTING


@serves("GetSubscriptionAttributes")
def _(w):
    sub = w.subscription(w.topic())
    yield "an sqs subscription", w.sns.get_subscription_attributes(SubscriptionArn=sub), {}


@serves("SetSubscriptionAttributes")
def _(w):
    sub = w.subscription(w.topic())
    yield "RawMessageDelivery", w.sns.set_subscription_attributes(
        SubscriptionArn=sub, AttributeName="RawMessageDelivery", AttributeValue="true"
    ), {}


@serves("Publish")
def _(w):
    yield "a standard topic", w.sns.publish(TopicArn=w.topic(), Message="m"), {
        "SequenceNumber": STANDARD_TOPIC
    }
    yield "a FIFO topic", w.sns.publish(
        TopicArn=w.topic(fifo=True), Message="m", MessageGroupId="g", MessageDeduplicationId="d"
    ), {}


@serves("PublishBatch")
def _(w):
    entries = [{"Id": "one", "Message": "m1"}, {"Id": "two", "Message": "m2"}]
    yield "a standard topic", w.sns.publish_batch(
        TopicArn=w.topic(), PublishBatchRequestEntries=entries
    ), {"Successful[].SequenceNumber": STANDARD_TOPIC}
    fifo = [dict(e, MessageGroupId="g", MessageDeduplicationId=e["Id"]) for e in entries]
    yield "a FIFO topic", w.sns.publish_batch(
        TopicArn=w.topic(fifo=True), PublishBatchRequestEntries=fifo
    ), {}


@serves("PutDataProtectionPolicy")
def _(w):
    yield "a deny policy", w.sns.put_data_protection_policy(
        ResourceArn=w.topic(), DataProtectionPolicy=DATA_PROTECTION_POLICY
    ), {}


@serves("GetDataProtectionPolicy")
def _(w):
    topic = w.topic()
    w.sns.put_data_protection_policy(ResourceArn=topic, DataProtectionPolicy=DATA_PROTECTION_POLICY)
    yield "a topic with a policy", w.sns.get_data_protection_policy(ResourceArn=topic), {}


def member_paths(shape, prefix=""):
    """Every member path of an output shape, as the allowed absences name them."""
    paths = set()
    for name, member in shape.members.items():
        paths.add(prefix + name)
        if member.type_name == "list" and member.member.type_name == "structure":
            paths |= member_paths(member.member, f"{prefix}{name}[].")
        elif member.type_name == "structure":
            paths |= member_paths(member, f"{prefix}{name}.")
    return paths


def missing_members(shape, value, allowed, prefix=""):
    """The member paths of `shape` that the parsed `value` lacks, less the allowed ones."""
    missing = set()
    for name, member in shape.members.items():
        path = prefix + name
        if name not in value:
            if path not in allowed:
                missing.add(path)
        elif member.type_name == "list" and member.member.type_name == "structure":
            for item in value[name]:
                missing |= missing_members(member.member, item, allowed, f"{path}[].")
        elif member.type_name == "structure":
            missing |= missing_members(member, value[name], allowed, f"{path}.")
    return missing


def local(tag):
    """An XML tag without its namespace."""
    return tag.rsplit("}", 1)[-1]


def wrapper_of(op):
    """The element the model says wraps the operation's result members, if any."""
    return op.output_shape.serialization.get("resultWrapper") if op.output_shape else None


def check_raw(op, response):
    """The answer's XML is `<OpResponse>` in SNS's namespace with its request id and, when the
    model has a result wrapper, `<OpResult>` holding only modelled members."""
    assert response["status_code"] == 200, response
    body = response["body"].decode()
    root = ET.fromstring(body)
    namespace = op.service_model.metadata["xmlNamespace"]
    assert root.tag == f"{{{namespace}}}{op.name}Response", body
    children = {local(child.tag): child for child in root}
    assert "ResponseMetadata" in children, body
    shape = op.output_shape
    wrapper = wrapper_of(op)
    if wrapper is None:
        return
    assert wrapper in children, f"{op.name}: the answer has no <{wrapper}>: {body}"
    names = {m.serialization.get("name", n) for n, m in shape.members.items()}
    unmodelled = sorted({local(c.tag) for c in children[wrapper]} - names)
    assert not unmodelled, f"{op.name}: <{wrapper}> holds unmodelled {unmodelled}: {body}"


@pytest.mark.parametrize("name", sorted(SERVED))
def test_sns_model_served(name, sns, world):
    op = sns.meta.service_model.operation_model(name)
    sns.raw.pop(name, None)
    cases = SERVED[name](world)
    while True:
        try:
            what, result, allowed = next(cases)
        except StopIteration:
            break
        except KeyError as e:
            # botocore's Query parser looks the result wrapper up by name: name the operation
            # whose answer lacked it (the case's own call, or one it set up with).
            failed = next(
                (o for o in sns.raw if wrapper_of(sns.meta.service_model.operation_model(o))
                 == e.args[0]),
                None,
            )
            answer = failed and sns.raw[failed]["body"].decode()
            pytest.fail(f"{name}: boto3 failed to parse the {failed} answer: KeyError {e}: {answer}")
        assert name in sns.raw, f"{name} ({what}): the case did not call {name}"
        check_raw(op, sns.raw.pop(name))
        assert result["ResponseMetadata"]["RequestId"], f"{name} ({what}): no request id"
        if op.output_shape is None:
            continue
        stray = set(allowed) - member_paths(op.output_shape)
        assert not stray, f"{name}: allowed absences name no output member: {sorted(stray)}"
        missing = missing_members(op.output_shape, result, allowed)
        assert not missing, f"{name} ({what}): the parsed result lacks {sorted(missing)}: {result}"


def placeholder(shape):
    """A value botocore's validation accepts for `shape` (the server refuses the action itself)."""
    kind = shape.type_name
    if kind == "structure":
        return {n: placeholder(shape.members[n]) for n in shape.required_members}
    if kind == "list":
        return [placeholder(shape.member)] * shape.metadata.get("min", 0)
    if kind == "map":
        return {}
    if kind == "boolean":
        return False
    if kind in ("integer", "long"):
        return shape.metadata.get("min", 1)
    if kind == "blob":
        return b"x"
    return "x" * max(1, shape.metadata.get("min", 1))


@pytest.mark.parametrize("name", NOT_SERVED)
def test_sns_model_not_served(name, sns):
    op = sns.meta.service_model.operation_model(name)
    params = placeholder(op.input_shape) if op.input_shape is not None else {}
    call = getattr(sns, method_of(sns, name))
    with pytest.raises(ClientError) as caught:
        call(**params)
    response = caught.value.response
    assert response["Error"]["Code"] == "InvalidAction", response
    assert response["ResponseMetadata"]["HTTPStatusCode"] == 400, response
    assert response["Error"]["Message"] == f"The action {name} is not valid for this web service."


def method_of(client, name):
    """The client method that calls operation `name`."""
    (method,) = [m for m, op in client.meta.method_to_api_mapping.items() if op == name]
    return method


def test_sns_model_sweeps_every_operation(sns):
    operations = set(sns.meta.service_model.operation_names)
    served, not_served = set(SERVED), set(NOT_SERVED)
    assert not served & not_served, sorted(served & not_served)
    assert operations - served - not_served == set(), "operations neither swept nor listed"
    assert (served | not_served) - operations == set(), "listed operations the model lacks"
