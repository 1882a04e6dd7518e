"""A Powertools handler for FIFO queues: SqsFifoPartialProcessor stops at the first failed record
and reports it and every record after it as batchItemFailures, keeping the group's order."""

from aws_lambda_powertools.utilities.batch import (
    SqsFifoPartialProcessor,
    process_partial_response,
)

from batch import record_handler
from recorder import record as record_event

processor = SqsFifoPartialProcessor()


def handler(event, context):
    record_event(event)
    return process_partial_response(
        event=event, record_handler=record_handler, processor=processor, context=context
    )
