"""Hints sent over the channel layer after a commit.

They carry no game data: receivers read the database and render their own view, so a lost or
late hint costs a refresh, never a leak or a wrong board.
"""

import secrets
import time

from channels import layers

from biblios_site import push

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def game_changed(game_id: int, version: int, *, seats_changed: bool = False) -> None:
    """`seats_changed`: who plays a seat changed (a bot took over, a player came back), which
    is news at the same version. `hint` names this one commit's hint: a worker's sockets on the
    game share one read of it (`consumers.read_for`); versions do not tell commits apart (a
    seat changing hands, a table abandoned keep theirs)."""
    message = {
        "type": "game.changed",
        "game_id": game_id,
        "version": version,
        "hint": secrets.token_hex(8),
    }
    if seats_changed:
        message["seats_changed"] = True
    push.send(game_group(game_id), message)


def chat_changed(game_id: int, channel: str) -> None:
    push.send(game_group(game_id), {"type": "chat.changed", "game_id": game_id, "channel": channel})


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def user_banned(user_id: int) -> None:
    """Every socket of this user closes (their pages stop updating, their moves stop)."""
    push.send(user_group(user_id), {"type": "user.banned"})


def lobby_changed() -> None:
    push.send(LOBBY_GROUP, {"type": "lobby.changed"})


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
