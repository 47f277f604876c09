"""A bare echo WebSocket: the floor the load benchmark compares game latency with.

Mounted at `ws/echo/` by the benchmark's own entry point (benchmarks/asgi.py): it does no
authentication, no database and no channel layer, so its round trip is what daphne, the
Channels routing and the network stack cost by themselves on the same server.
"""

from channels.generic.websocket import AsyncWebsocketConsumer


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)
