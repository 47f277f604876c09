"""`ws/lobby/`: the live lobby, redrawn for each reader when a table opens, fills or closes."""

from channels.db import database_sync_to_async

from accounts.middleware import in_reader_language
from biblios_site.overload import admit_message
from biblios_site.sockets import Consumer
from games.play import broadcast, rendering


class LobbyConsumer(Consumer):
    """`ws/lobby/`: the lobby's tables, re-rendered for this user whenever they change."""

    async def connect(self):
        await self.accept()
        await self.channel_layer.group_add(broadcast.LOBBY_GROUP, self.channel_name)
        await self._send_lobby()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to ask this socket; one that floods it is closed all the same."""
        await admit_message(self, self.scope.get("user"))

    async def lobby_changed(self, event):
        await self._send_lobby()

    async def _send_lobby(self):
        user = self.scope.get("user")
        await self.send(text_data=await database_sync_to_async(self._render_lobby)(user))

    @in_reader_language
    def _render_lobby(self, user) -> str:
        return rendering.lobby_html(user)
