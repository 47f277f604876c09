"""The embedded channel layer sweeps expired messages at most once a second
(games/play/broadcast.py):
what expired must still go, just not on every send and receive."""

import asyncio

from games.play.broadcast import InMemoryChannelLayer

DEAD, LIVE = "specific.inmemory!dead", "specific.inmemory!live"


def test_a_channel_whose_message_expired_still_leaves_its_groups_at_the_next_sweep():
    async def scenario():
        layer = InMemoryChannelLayer(expiry=0.2)
        await layer.group_add("game-1", DEAD)
        await layer.send(DEAD, {"type": "game.changed"})  # never read: its reader is gone
        await asyncio.sleep(0.3)
        await layer.group_add("game-1", LIVE)
        await layer.group_send("game-1", {"type": "game.changed"})  # swept just before: none
        assert set(layer.groups["game-1"]) == {LIVE}
        assert DEAD not in layer.channels
        await layer.send(LIVE, {"type": "game.changed"})
        await asyncio.sleep(0.3)  # LIVE's messages have expired too, but within the second
        await layer.group_send("game-1", {"type": "game.changed"})
        assert set(layer.groups["game-1"]) == {LIVE}  # not swept yet
        await asyncio.sleep(InMemoryChannelLayer.SWEEP_EVERY_S)
        await layer.group_send("game-1", {"type": "game.changed"})
        assert "game-1" not in layer.groups or LIVE not in layer.groups["game-1"]

    asyncio.run(scenario())
