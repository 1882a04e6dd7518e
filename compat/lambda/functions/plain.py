"""A plain Python handler, as a Lambda container image runs it: fails the whole batch (raises)
when any message asks it to, else succeeds."""

from recorder import failing, record


def handler(event, context):
    record(event)
    bodies = [r["body"] for r in event["Records"]]
    if any(failing(b) for b in bodies):
        raise ValueError(f"{context.function_name} was asked to fail: {bodies}")
    return {"processed": len(bodies)}
