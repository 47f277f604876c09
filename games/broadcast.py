"""Hints sent over the channel layer after a commit.

They carry no game data: receivers read the database and render their own view, so a lost or
late hint costs a refresh, never a leak or a wrong board.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

LOBBY_GROUP = "lobby"


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def game_changed(game_id: int, version: int) -> None:
    _send(game_group(game_id), {"type": "game.changed", "game_id": game_id, "version": version})


def chat_changed(game_id: int, channel: str) -> None:
    _send(game_group(game_id), {"type": "chat.changed", "game_id": game_id, "channel": channel})


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def user_banned(user_id: int) -> None:
    """Every socket of this user closes (their pages stop updating, their moves stop)."""
    _send(user_group(user_id), {"type": "user.banned"})


def lobby_changed() -> None:
    _send(LOBBY_GROUP, {"type": "lobby.changed"})


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)
