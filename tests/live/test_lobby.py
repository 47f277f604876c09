"""`ws/lobby/`: the lobby's tables follow tables being created and filled, for each visitor
(a full table stays listed to its players alone)."""

import pytest
from channels.db import database_sync_to_async

from games.tables import services

from .helpers import TIMEOUT, Sockets, run, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

create_table = database_sync_to_async(services.create_table)
join_table = database_sync_to_async(services.join_table)


def test_the_lobby_updates_when_a_table_opens_and_fills(users):
    cookie = session_cookie(users[1])
    sockets = Sockets()

    async def scenario():
        member, first = await sockets.connect("/ws/lobby/", cookie=cookie)
        visitor, _ = await sockets.connect("/ws/lobby/")  # anonymous
        assert 'id="lobby-tables"' in first and "data-game=" not in first
        game = await create_table(users[0], services.TableSettings(2))
        for socket in (member, visitor):
            update = await socket.receive_from(timeout=TIMEOUT)
            assert 'hx-swap-oob="true"' in update and f'data-game="{game.pk}"' in update
            assert "1/2" in update
        await join_table(game.pk, users[1])
        seen_by_member = await member.receive_from(timeout=TIMEOUT)
        seen_by_visitor = await visitor.receive_from(timeout=TIMEOUT)
        assert "2/2" in seen_by_member and "My tables" in seen_by_member
        # Full, nobody else can join it: it leaves the visitor's list of open tables.
        assert "My tables" not in seen_by_visitor and "data-game=" not in seen_by_visitor
        await sockets.close_all()

    run(scenario)
