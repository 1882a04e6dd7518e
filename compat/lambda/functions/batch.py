"""A Powertools for AWS Lambda batch handler: BatchProcessor with process_partial_response
reports the records it failed as batchItemFailures. The event is first parsed with Powertools'
own pydantic model of Lambda's SQS event (SqsModel), so a shape it does not accept fails the
invocation."""

from aws_lambda_powertools.utilities.batch import (
    BatchProcessor,
    EventType,
    process_partial_response,
)
from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from aws_lambda_powertools.utilities.parser.models import SqsModel

from recorder import failing, record as record_event

processor = BatchProcessor(event_type=EventType.SQS)


def record_handler(record: SQSRecord):
    """Powertools passes the record by keyword (`record=`)."""
    if failing(record.body, record.attributes.approximate_receive_count):
        raise ValueError(f"record {record.message_id} was asked to fail")
    return record.body


def handler(event, context):
    SqsModel.model_validate(event)
    record_event(event)
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
