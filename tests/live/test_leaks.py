"""R22 over the wire: a whole random game played on the sockets, and no frame to a seat or a
spectator names a card it may not know (worked out from the omniscient zones, see Knowledge)."""

import json
import random

import pytest

from accounts.models import ApiToken
from games.kinds.biblios import engine as biblios
from games.models import Game

from .helpers import (
    TIMEOUT,
    Knowledge,
    Sockets,
    board_version,
    card_ids_in,
    run,
    seated_users,
    session_cookie,
    started_game,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_no_frame_of_a_whole_game_shows_a_hidden_card(users):
    """Medieval bluff, so that refusals bring penalties and face-down discards (R14, R15)."""
    rng = random.Random(1)
    game = started_game(users, 2, seed=5, options={"medieval_bluff": True})
    by_seat = seated_users(game)
    html_player = session_cookie(by_seat[0])
    json_player = ApiToken.issue(by_seat[1])[1]
    spectator = session_cookie(users[4])
    state = game.engine_state()
    knowledge = Knowledge(2)
    knowledge.see(state)
    path = f"/ws/games/{game.pk}/"

    async def scenario():
        nonlocal state
        sockets = Sockets()
        connected = await sockets.connect_seats(
            [(path, {"cookie": html_player}), (f"{path}?format=json&token={json_player}", {})]
        )
        watcher, _ = await sockets.connect(path, cookie=spectator)
        listeners = [(0, connected[0][0]), (1, connected[1][0]), (None, watcher)]
        frames = 0
        while biblios.to_act(state):
            seat = biblios.to_act(state)[0]
            action = rng.choice(biblios.legal_actions(state, seat))
            await connected[seat][0].send_json_to({"action": action, "version": state.version})
            state = biblios.apply_action(state, seat, action)
            knowledge.see(state)
            for viewer, socket in listeners:
                frame = await socket.receive_from(timeout=TIMEOUT)
                leaked = card_ids_in(frame) & knowledge.hidden_from(viewer)
                assert not leaked, (viewer, state.version, leaked)
                if viewer == 1:
                    board = json.loads(frame)
                    assert board["view"] == biblios.view(state, 1)
                else:
                    assert board_version(frame) == state.version
                frames += 1
        await sockets.close_all()
        return frames

    box = []

    async def keep():
        box.append(await scenario())

    run(keep)
    assert box[0] == 3 * state.version
    assert state.hidden_discard  # the game did test face-down discards
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
