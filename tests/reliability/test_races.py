"""Duplicate and racing submissions against a live worker: exactly one applies, the other is
refused with a clear answer, and the move log holds it once."""

import asyncio
import json

import pytest

from games.models import Game
from tests.play import seated_users, started_game
from tests.reliability.conftest import Board, post_action, token


def moves_after(game: Game, version: int) -> list[int]:
    return list(game.moves.filter(seq__gt=version).values_list("seq", flat=True))


@pytest.mark.slow
def test_racing_submissions_apply_exactly_once(site, users):
    game = started_game(users, 2, seed=2)
    tokens = {seat: token(user) for seat, user in seated_users(game).items()}
    url = site(1).urls[0]
    rounds = []

    async def scenario():
        boards = [await Board(url, game.pk, tokens[seat]).open() for seat in (0, 1)]
        version = max(board.latest["version"] for board in boards)
        for kind in ("same move twice", "both players", "post and socket"):
            await asyncio.gather(
                *(board.until(lambda f, v=version: f.get("version", -1) >= v) for board in boards)
            )
            actor_board = next(
                board
                for board in boards
                if board.latest["version"] == version
                and board.latest["view"]["seat"] in board.latest["view"]["to_act"]
            )
            view = actor_board.latest["view"]
            actor, other = view["seat"], 1 - view["seat"]
            action = view["legal_actions"][0]
            mine = post_action(url, game.pk, tokens[actor], version, action)
            if kind == "same move twice":
                answers = await asyncio.gather(
                    mine, post_action(url, game.pk, tokens[actor], version, action)
                )
            elif kind == "both players":
                answers = await asyncio.gather(
                    mine, post_action(url, game.pk, tokens[other], version, action)
                )
            else:
                seen = len(actor_board.frames)
                actor_board.socket.send({"action": action, "version": version})
                answers = [await mine]
                if answers[0][0] == 200:  # the post won: the socket's move is refused
                    error = await actor_board.until(lambda f: "error" in f, since=seen)
                    answers.append((error["status"], error))
                else:  # the socket's move won: the post was refused
                    answers.append((200, None))
            rounds.append((kind, version, answers))
            version += 1
        for board in boards:
            await board.close()

    asyncio.run(scenario())
    for kind, version, answers in rounds:
        statuses = sorted(status for status, _ in answers)
        assert statuses[0] == 200 and statuses[1] in (400, 403, 409), (kind, answers)
        refused = next(answer for status, answer in answers if status != 200)
        assert refused["error"], (kind, refused)
        assert moves_after(game, version)[:1] == [version + 1], kind
    game.refresh_from_db()
    assert game.moves.count() == game.version - rounds[0][1]
    assert json.loads(game.state)["version"] == game.version
