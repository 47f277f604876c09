"""Hints sent over the channel layer after a commit.

They carry no game data: receivers read the database and render their own view, so a lost or
late hint costs a refresh, never a leak or a wrong board.
"""

import hashlib
import logging
import time

from asgiref.sync import async_to_sync
from channels import layers
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def game_changed(game_id: int, version: int, *, seats_changed: bool = False) -> None:
    """`seats_changed`: who plays a seat changed (a bot took over, a player came back), which
    is news at the same version."""
    message = {"type": "game.changed", "game_id": game_id, "version": version}
    if seats_changed:
        message["seats_changed"] = True
    _send(game_group(game_id), message)


def chat_changed(game_id: int, channel: str) -> None:
    _send(game_group(game_id), {"type": "chat.changed", "game_id": game_id, "channel": channel})


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def user_banned(user_id: int) -> None:
    """Every socket of this user closes (their pages stop updating, their moves stop)."""
    _send(user_group(user_id), {"type": "user.banned"})


def token_group(token_id: int) -> str:
    """The sockets opened with one API token."""
    return f"token-{token_id}"


def session_group(session_key: str) -> str:
    """The sockets opened with one login session; hashed because the key is itself a credential
    and group names are readable by anyone who can read Redis."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def credentials_ended(group: str) -> None:
    """A token was revoked or a session ended: the sockets it opened close (4401), and only
    those (the user's other sessions and tokens keep theirs)."""
    _send(group, {"type": "credentials.ended"})


def lobby_changed() -> None:
    _send(LOBBY_GROUP, {"type": "lobby.changed"})


def _send(group: str, message: dict) -> None:
    """Send a hint, never failing the caller: hints go out after the commit, so the move (or
    chat line, or seat change) is already kept, and a failure here must not turn its answer
    into a 500 or the turn worker's move into a "failed" one. It is logged; the sockets that
    missed the hint get the current board with the next hint they receive, when their client
    asks (`{"type": "resync"}` on a version gap) or when they reconnect (htmx's ws extension
    and API clients do, and a socket sends the full board on connect)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as error:  # the layer's own (Redis) errors: none of them undo the commit
        logger.warning("broadcast of %s to %s failed: %r", message["type"], group, error)


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    """Channels' in-process layer (one daphne process), sweeping expired messages and group
    memberships at most once a second instead of on every send and receive.

    The sweep walks every channel and group: with 800 open sockets it was ~11% of a loaded
    worker (benchmarks/load.py). Messages expire after a minute and memberships after a day,
    so a second's delay in dropping them changes nothing a consumer sees.
    """

    SWEEP_EVERY_S = 1.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.swept_at = float("-inf")

    def _clean_expired(self):
        now = time.monotonic()
        if now - self.swept_at >= self.SWEEP_EVERY_S:
            self.swept_at = now
            super()._clean_expired()
