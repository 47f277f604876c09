"""Playing through the API: whole games, boards per seat, refusals, and what each seat sees."""

import json
import random
import re

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS
from games.models import Game, Move
from games.play import services
from tests.passes import half_per_pass

from .conftest import ApiClient, new_table, snapshot, started_table

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r"[\w-]+")


def card_ids_in(payload) -> set[str]:
    """Every card id written anywhere in a JSON payload, matched as a whole token."""
    return set(CARD_IDS).intersection(TOKEN.findall(json.dumps(payload)))


def where(value, cards: set[str], path: str = "board") -> list[str]:
    """The paths inside a payload at which any of `cards` is written (for failure messages)."""
    if isinstance(value, dict):
        return [
            found for key, item in value.items() for found in where(item, cards, f"{path}.{key}")
        ]
    if isinstance(value, list):
        return [
            found for i, item in enumerate(value) for found in where(item, cards, f"{path}[{i}]")
        ]
    return [f"{path} = {value!r}"] if card_ids_in(value) & cards else []


def by_seat(players, game_id: int) -> dict[int, ApiClient]:
    return {p.get(f"/api/games/{game_id}").data["seat"]: p for p in players} | {None: None}


def move(player: ApiClient, game_id: int, rng: random.Random):
    """A random legal action by `player`, chosen from its own board, posted with its version."""
    board = player.get(f"/api/games/{game_id}").data
    action = rng.choice(board["view"]["legal_actions"])
    response = player.post(
        f"/api/games/{game_id}/actions", {"version": board["version"], "action": action}
    )
    assert response.status_code == 200, response.data
    assert response.data["version"] == board["version"] + 1
    return response.data


@pytest.mark.parametrize(
    ("num_players", "variant"),
    # Each pass of .ci/run plays half of the games (tests.passes).
    half_per_pass([(2, "biblios"), (3, "scripts_and_scribes"), (4, "biblios")]),
)
def test_a_whole_game_is_played_through_the_api_only(players, num_players, variant):
    rng = random.Random(num_players)
    game_id = started_table(players, num_players, kind="biblios", variant=variant)
    seats = by_seat(players[:num_players], game_id)
    assert sorted(s for s in seats if s is not None) == list(range(num_players))
    to_act = players[0].get(f"/api/games/{game_id}").data["view"]["to_act"]
    moves = 0
    while to_act:
        played = move(seats[to_act[0]], game_id, rng)
        to_act = played["view"]["to_act"]
        moves += 1
    assert played["status"] == "finished"
    for seat, player in seats.items():
        if player is None:
            continue
        board = player.get(f"/api/games/{game_id}").data
        assert board["status"] == "finished" and board["version"] == moves
        assert board["seat"] == seat and board["view"]["result"]["winners"]
        assert board["view"]["legal_actions"] == []
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED and game.moves.count() == moves
    assert board["view"]["result"] == game.result


def test_the_board_of_a_seat_and_of_a_spectator(players):
    game_id = started_table(players, 2)
    game = Game.objects.get(pk=game_id)
    seats = by_seat(players[:2], game_id)
    board = seats[1].get(f"/api/games/{game_id}").data
    assert board["id"] == game_id and board["version"] == 0 and board["status"] == "active"
    assert board["seat"] == 1
    assert board["players"] == [
        {
            "seat": seat,
            "name": str(game.seats.get(position=seat).user),
            "bot": None,
            "taken_over": False,
        }
        for seat in (0, 1)
    ]
    assert board["turn_deadline"] is None  # an untimed table
    assert board["view"] == biblios.view(game.engine_state(), 1)
    spectator = players[3].get(f"/api/games/{game_id}").data
    assert spectator["seat"] is None
    assert spectator["view"] == biblios.view(game.engine_state(), None)
    assert spectator["view"]["hand"] is None and spectator["view"]["legal_actions"] == []


def test_an_open_table_has_no_board_yet(players):
    table = new_table(players[0], num_players=3)
    board = players[1].get(f"/api/games/{table['id']}").data
    assert board == {
        "id": table["id"],
        "version": 0,
        "status": "open",
        "seat": None,
        "players": [{"seat": 0, "name": "Player 0", "bot": None, "taken_over": False}],
        "turn_deadline": None,
        "view": None,
    }


def test_tables_without_spectators_show_no_board_to_outsiders(players):
    # The waiting room shows to whoever may join, as on the web (games.access); no board yet.
    table = new_table(players[0], num_players=2, spectators_allowed=False)
    waiting = players[2].get(f"/api/games/{table['id']}")
    assert waiting.status_code == 200 and waiting.data["view"] is None
    game_id = started_table(players, 2, spectators_allowed=False)
    refused = players[2].get(f"/api/games/{game_id}")
    assert refused.status_code == 403 and "spectators" in refused.data["error"]
    assert "view" not in refused.data
    assert players[1].get(f"/api/games/{game_id}").data["view"]["hand"] is not None


def test_private_games_show_only_to_their_players(players):
    table = new_table(players[0], num_players=2, private=True)
    refused = players[2].get(f"/api/games/{table['id']}")
    assert refused.status_code == 403 and "private" in refused.data["error"]
    game_id = started_table(players, 2, private=True)
    refused = players[2].get(f"/api/games/{game_id}")
    assert refused.status_code == 403 and "view" not in refused.data
    assert players[1].get(f"/api/games/{game_id}").data["view"]["hand"] is not None


def test_unknown_games_are_404(players):
    assert players[0].get("/api/games/424242").status_code == 404
    response = players[0].post("/api/games/424242/actions", {"version": 0, "action": {}})
    assert response.status_code == 404 and "no game 424242" in response.data["error"]


def actor_of(players, game_id: int) -> tuple[ApiClient, dict]:
    seats = by_seat(players, game_id)
    board = players[0].get(f"/api/games/{game_id}").data
    actor = seats[board["view"]["to_act"][0]]
    return actor, actor.get(f"/api/games/{game_id}").data


def test_a_stale_version_gets_409_with_the_current_board_and_changes_nothing(players):
    game_id = started_table(players, 3)
    actor, board = actor_of(players[:3], game_id)
    action = board["view"]["legal_actions"][0]
    url = f"/api/games/{game_id}/actions"
    assert actor.post(url, {"version": 0, "action": action}).status_code == 200
    next_actor, _ = actor_of(players[:3], game_id)
    before = snapshot(game_id)
    for player in (actor, next_actor):
        current = player.get(f"/api/games/{game_id}").data
        stale = player.post(url, {"version": 0, "action": action})
        assert stale.status_code == 409
        assert "version 1" in stale.data["error"]
        assert stale.data["version"] == 1 and stale.data["status"] == "active"
        assert stale.data["view"] == current["view"]
    ahead = next_actor.post(url, {"version": 7, "action": action})
    assert ahead.status_code == 409 and ahead.data["version"] == 1
    assert snapshot(game_id) == before


def test_an_illegal_action_gets_400_naming_the_rule_and_changes_nothing(players):
    game_id = started_table(players, 2)
    actor, board = actor_of(players[:2], game_id)
    url = f"/api/games/{game_id}/actions"
    before = snapshot(game_id)
    refused = actor.post(url, {"version": 0, "action": {"type": "bid", "amount": 2}})
    assert refused.status_code == 400
    assert refused.data["error"].startswith("R3: a 'bid' action is not possible now")
    malformed = actor.post(url, {"version": 0, "action": {"type": "place", "to": "moon"}})
    assert malformed.status_code == 400 and malformed.data["error"]
    other = next(p for p in players[:2] if p is not actor)
    not_their_turn = other.post(url, {"version": 0, "action": board["view"]["legal_actions"][0]})
    assert not_their_turn.status_code == 400 and "turn" in not_their_turn.data["error"]
    assert snapshot(game_id) == before


def test_only_seated_players_may_act(players):
    game_id = started_table(players, 2)
    _, board = actor_of(players[:2], game_id)
    before = snapshot(game_id)
    refused = players[3].post(
        f"/api/games/{game_id}/actions",
        {"version": 0, "action": board["view"]["legal_actions"][0]},
    )
    assert refused.status_code == 403 and "not playing" in refused.data["error"]
    assert snapshot(game_id) == before


def test_acting_before_the_start_or_after_the_end_is_refused(players):
    table = new_table(players[0], num_players=2)
    early = players[0].post(
        f"/api/games/{table['id']}/actions", {"version": 0, "action": {"type": "pass"}}
    )
    assert early.status_code == 409 and "waiting for players" in early.data["error"]
    assert not Move.objects.exists()


# --------------------------------------------------------------------------------- secrecy


def play_by_services(game_id: int, rng: random.Random):
    """Random legal moves through the real service (submit_action), yielding
    (state, seat, action) after each move."""
    game = Game.objects.get(pk=game_id)
    users = {seat.position: seat.user for seat in game.seats.all()}
    while True:
        state = Game.objects.get(pk=game_id).engine_state()
        if not biblios.to_act(state):
            return
        seat = biblios.to_act(state)[0]
        action = rng.choice(biblios.legal_actions(state, seat))
        services.submit_action(game_id, users[seat], action, version=state.version)
        yield Game.objects.get(pk=game_id).engine_state(), seat, action


def test_a_spectator_never_sees_a_card_in_any_hand(players):
    """After a placement (the last event then names no picked or bought card), no card id held
    in any hand appears anywhere in a spectator's API board."""
    game_id = started_table(players, 3, variant="biblios", options={"medieval_bluff": True})
    spectator = players[3]
    checked = 0
    for state, _, action in play_by_services(game_id, random.Random(5)):
        if action["type"] != "place" or state.phase == "over":
            continue
        zones = biblios.view(state, "all")["zones"]
        in_hands = {card for hand in zones["hands"] for card in hand}
        board = spectator.get(f"/api/games/{game_id}").data
        assert board["view"]["hand"] is None
        assert not card_ids_in(board) & in_hands, (state.version, card_ids_in(board) & in_hands)
        checked += 1
    assert checked > 10


class Secrets:
    """Cards that are certainly hidden from each seat, learnt from every state of a game.

    A card in someone's hand, or discarded face down, is hidden from seat s unless it was ever
    public (public space, auction card, church card, public discard), ever in s's own hand, or
    shown to s as R15's penalty card (the loser's left neighbour sees the card drawn out of the
    game). The draw pile, the removed cards and the cards others put in the auction pile (or are
    placing) are hidden from s. A spectator (None) knows only what was public.
    """

    def __init__(self, state: biblios.State):
        self.n = state.num_players
        self.public: set[str] = set()
        self.known = [set() for _ in range(self.n)]
        self.zones = None
        self.learn(state)

    def learn(self, state: biblios.State, mover=None, action=None) -> None:
        """Learn from `state`, reached by `mover` playing `action` (None for the first state)."""
        before, self.zones = self.zones, biblios.view(state, "all")["zones"]
        if action is not None and action["type"] == "refuse":
            lost = set(before["hands"][mover]) - set(self.zones["hands"][mover])
            kept = {card for hand in self.zones["hands"] for card in hand}
            self.known[(mover + 1) % self.n] |= lost - kept
        self.public.update(
            self.zones["public_space"],
            self.zones["auction_card"],
            self.zones["church_card"],
            state.discard,
        )
        for holder, hand in enumerate(self.zones["hands"]):
            self.known[holder].update(hand)

    def hidden_from(self, state: biblios.State, seat) -> set[str]:
        zones = self.zones
        known = self.public | (self.known[seat] if seat is not None else set())
        held = {card for hand in zones["hands"] for card in hand}
        held |= {card for card, _ in state.hidden_discard}
        hidden = (held - known) | set(zones["draw_pile"]) | set(zones["removed"])
        hidden |= {card for card in zones["auction_pile"] if state.placed_by.get(card) != seat}
        if seat != state.active:
            hidden |= set(zones["drawing"]) | set(zones["self_card"])
        return hidden


@pytest.mark.look  # a leak scan: what a reader is sent is the same on any services
@pytest.mark.parametrize("num_players", [2, 4])
def test_no_board_shows_a_seat_a_card_hidden_from_it(players, num_players):
    """For random states of a random game, every seat's and a spectator's API board carries no
    card id that is hidden from it (until the end, when the final hands are shown)."""
    rng = random.Random(num_players * 7)
    game_id = started_table(players, num_players, options={"medieval_bluff": True})
    clients = by_seat(players[:num_players], game_id)
    clients[None] = players[3] if num_players < 4 else None
    secrets = Secrets(Game.objects.get(pk=game_id).engine_state())
    checked = 0
    for state, mover, action in play_by_services(game_id, rng):
        secrets.learn(state, mover, action)
        if state.phase == "over" or rng.random() > 0.15:
            continue
        for seat, client in clients.items():
            if client is None:
                continue
            board = client.get(f"/api/games/{game_id}").data
            assert board["seat"] == seat and board["version"] == state.version
            leaked = card_ids_in(board) & secrets.hidden_from(state, seat)
            assert not leaked, (seat, state.step, state.version, where(board, leaked))
            checked += 1
    assert checked > 20
