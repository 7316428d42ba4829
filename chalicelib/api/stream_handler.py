"""The table's stream → room notices (`chalicelib.push.fanout`) and the chat helper's "your turn"
notices. Its own Lambda, invoked by the event source mapping on the table's stream
(NEW_AND_OLD_IMAGES), which infra/template.py points at the stack's table (Chalice needs a full
ARN when the decorator runs: the merge template replaces this placeholder, Chalice issue 1882) and
filters to the records `fanout.wanted` accepts. Locally, `infra/local_server.py` polls the same
stream and calls this same function with the same record shape."""

from __future__ import annotations

import os
from dataclasses import asdict
from typing import Any

from chalice import Blueprint

from chalicelib.observability import flush_metrics, logger

bp = Blueprint(__name__)
STREAM_ARN = os.environ.get(
    "ROOM_STREAM_ARN", "arn:aws:dynamodb:ap-east-1:000000000000:table/shengong/stream/1970-01-01T00:00:00.000")


@bp.on_dynamodb_record(stream_arn=STREAM_ARN, batch_size=100, starting_position="LATEST", name="room_stream")
def room_stream(event: Any) -> dict[str, Any]:
    from chalicelib.push.build import current
    from chalicelib.push.fanout import handle_records

    report = handle_records(current(), event.to_dict().get("Records", []))
    out = {k: v for k, v in asdict(report).items() if k != "watching"}
    logger.debug("room stream batch", extra=out)
    flush_metrics()
    return out
