"""Sending a message to a channel-layer group, the one way every app pushes to sockets.

Callers send after their commit (`transaction.on_commit`), so what they announce is already kept:
a failure here must not turn a move's answer into a 500 or the turn worker's move into a
"failed" one. It is logged; the sockets that missed the message get the current board with the
next message they receive, when their client asks (`{"type": "resync"}` on a version gap) or
when they reconnect (htmx's ws extension and API clients do, and a socket sends the full board
on connect).
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def send(group: str, message: dict) -> None:
    """Send `message` (a dict with a "type") to `group`, never failing the caller."""
    async_to_sync(send_from_loop)(group, message)


async def send_from_loop(group: str, message: dict) -> None:
    """`send`, for a caller already on the event loop (no thread hop)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group, message)
    except Exception as error:  # the layer's own (Redis) errors: none of them undo the commit
        logger.warning("push of %s to %s failed: %r", message["type"], group, error)
