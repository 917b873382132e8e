"""What Harbor records of a run: read from ``xzatoma run --json``'s event lines."""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class RunSummary:
    stop_reason: str | None
    tool_calls: int
    input_tokens: int
    output_tokens: int


def summary_of(events: str) -> RunSummary:
    """The run's end from its ``finished`` event; lines that are not JSON are skipped."""
    finished: dict = {}
    for line in events.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == "finished":
            finished = event
    usage = finished.get("treeUsage") or finished.get("usage") or {}
    return RunSummary(
        stop_reason=finished.get("stopReason"),
        tool_calls=int(finished.get("toolCalls") or 0),
        input_tokens=int(usage.get("inputTokens") or 0),
        output_tokens=int(usage.get("outputTokens") or 0),
    )
