"""A finished Ex Libris game afterwards: its replay (data and pages, every perspective the access
rule allows), its record export, the history page, the ratings of its (kind, variant), the
leaderboard and the profile, and the admin's inspector with its integrity check. Nothing read
names a card its reader may not know (X77)."""

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.access import Visitor
from games.history import replay
from games.kinds import registry
from games.kinds.exlibris import engine
from games.models import Game, Move
from games.moderation import services as moderation
from games.play import selectors, services
from ratings.models import Rating, RatingChange
from tests.kinds.exlibris.site.doors import SEED, ApiClient, assert_view_keeps_secrets, hidden_now
from tests.kinds.exlibris.site.helpers import (
    LOG_PARTS,
    Knowledge,
    assert_board_keeps_secrets,
    cards_in,
    open_table,
)
from tests.live.helpers import seated_users
from tests.play import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [
        django_user_model.objects.create_user(f"hist{i}", display_name=f"Hist {i}")
        for i in range(4)
    ]


def play(game: Game, rng: random.Random, *, until=None) -> Game:
    """Random legal moves, each seat choosing from its own board, through the services; up to
    version `until`, or the end."""
    users = seated_users(game)
    while game.status == Game.Status.ACTIVE and (until is None or game.version < until):
        seat = engine.to_act(game.engine_state())[0]
        board = selectors.board_for(game, Visitor.of(game, users[seat]))
        action = rng.choice(board["legal_actions"])
        services.submit_action(game.pk, users[seat], action, version=board["version"])
        game.refresh_from_db()
    return game


@pytest.fixture
def finished(people) -> Game:
    """A rated game of three people (no bot: rated by default), played to its end."""
    game = play_to_end(open_table(people, 3, seed=SEED), random.Random(3))
    assert game.status == Game.Status.FINISHED and game.rated
    return game


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def knowledge_by_step(states, players: int) -> list[dict]:
    """What each reader (a seat, or None) had been shown after each step: its views and events."""
    knowledge = Knowledge(players)
    found = []
    for state in states:
        knowledge.update(state)
        found.append({reader: set(cards) for reader, cards in knowledge.known.items()})
    return found


# ------------------------------------------------------------------------------------ replay


@pytest.mark.look  # a leak scan: what a reader is sent is the same on any services
def test_every_replayed_step_is_the_engines_and_keeps_each_perspectives_secrets(finished, people):
    """Each player's own perspective replays its view of that step; the open one (anyone may
    take it once the game is over) is the spectator's view plus every hand and focus (X77):
    never the deck, a face-down tile card or a card under a book."""
    states = replay.states_of(finished)
    moves = list(finished.moves.order_by("seq").values_list("seat", "action"))
    assert len(states) == finished.version + 1
    assert states[-1] == finished.engine_state()
    for user in people[:3]:
        keys = [choice.key for choice in replay.perspectives(finished, Visitor.of(finished, user))]
        assert keys == [replay.MINE, replay.OPEN]
    stranger = Visitor.of(finished, people[3])
    assert [c.key for c in replay.perspectives(finished, stranger)] == [replay.OPEN]
    mine = {seat: replay.Perspective(replay.MINE, "", seat) for seat in range(3)}
    opened = replay.Perspective(replay.OPEN, "", None)
    knowledge = Knowledge(3)
    for step in range(len(states)):
        state = states[step]
        knowledge.update(state)
        seen = knowledge.seen_shelved
        assert state == engine.replay(finished.setup, moves[:step])
        for seat, perspective in mine.items():
            view = replay.step_view(engine, states, step, perspective)
            assert view == {**engine.view(state, seat), "legal_actions": []}
            where = f"seat {seat}'s replay, {step}"
            assert_view_keeps_secrets(view, view, state, seat, where, seen)
        view = replay.step_view(engine, states, step, opened)
        assert view["open_hands"] == [record["hand"] for record in state["seats"]]
        assert view["open_foci"] == [record["focus"] for record in state["seats"]]
        beyond = cards_in(json.dumps({**view, "events": []})) - cards_in(
            json.dumps(engine.view(state, None))
        )
        hands = {card for record in state["seats"] for card in record["hand"]}
        assert beyond <= hands, f"the open replay of step {step} shows {sorted(beyond - hands)}"
        hidden = hidden_now(state, None, seen) - hands
        shown = cards_in(json.dumps({**view, "events": []})) & hidden
        assert not shown, f"the open replay of step {step} shows {sorted(shown)}"


def replay_url(game: Game, **query) -> str:
    tail = "&".join(f"{key}={value}" for key, value in query.items())
    return reverse("game_replay", args=[game.pk]) + (f"?{tail}" if tail else "")


def test_the_replay_pages_step_through_the_game_from_each_perspective(finished, people):
    """first/prev/next/last, the slider's range, and per perspective a board that shows only
    what its reader knew at that step (its log: what it was shown by the end)."""
    states = replay.states_of(finished)
    last = finished.version
    known = knowledge_by_step(states, 3)
    seat_of = {user: Visitor.of(finished, user).seat for user in people[:3]}
    middle = last // 2
    page = browser(people[0]).get(replay_url(finished, move=middle)).content.decode()
    for link, target in (("first", 0), ("prev", middle - 1), ("next", middle + 1), ("last", last)):
        assert f'href="?as=mine&amp;move={target}" data-step="{link}"' in page
    assert f'type="range" name="move" min="0" max="{last}" value="{middle}"' in page
    assert "/act/" not in page  # a replay is history: no action forms
    first = browser(people[0]).get(replay_url(finished, move=0)).content.decode()
    assert 'data-step="prev"' not in first
    final = browser(people[0]).get(replay_url(finished, move=last)).content.decode()
    assert 'data-step="next"' not in final
    for step in (0, 1, middle, last):
        state = states[step]
        for user, seat in seat_of.items():
            html = browser(user).get(replay_url(finished, move=step)).content.decode()
            assert f'data-step="{step}" data-perspective="mine"' in html
            where = f"seat {seat}'s replay page at step {step}"
            assert_board_keeps_secrets(html, state, seat, where)
            leaked = cards_in(LOG_PARTS.sub("", html)) - known[step][seat]
            assert not leaked, f"{where} shows {sorted(leaked)}, unknown to it then"
            leaked = cards_in(html) - known[-1][seat]
            assert not leaked, f"{where}'s log shows {sorted(leaked)}"
        html = browser(people[3]).get(replay_url(finished, move=step)).content.decode()
        assert f'data-step="{step}" data-perspective="open"' in html
        opened = cards_in(json.dumps(engine.open_hands_view(states, step)))
        leaked = cards_in(LOG_PARTS.sub("", html)) - opened
        assert not leaked, f"the open replay page at step {step} shows {sorted(leaked)}"
        leaked = cards_in(html) - opened - known[-1][None]
        assert not leaked, f"the open replay's log at step {step} shows {sorted(leaked)}"
        assert not re.search(rf"(?<!\d){SEED}(?!\d)", html)


def test_only_staff_replay_a_game_in_progress(people, django_user_model):
    game = play(open_table(people, 3, seed=5), random.Random(5), until=40)
    staff = django_user_model.objects.create_user("warden", is_staff=True)
    for user in (people[0], people[3], None):
        assert browser(user).get(replay_url(game)).status_code == 403
    page = browser(staff).get(replay_url(game, **{"as": "seat-1"}))
    assert page.status_code == 200 and 'data-perspective="seat-1"' in page.content.decode()


# ------------------------------------------------------------------------------------ record


def test_a_running_games_record_holds_only_what_its_reader_knows(people):
    """Before the end the export is the reader's board and, step by step, the events it was
    shown: no move log, no seed, nothing its reader was never shown (X77)."""
    game = open_table(people, 3, seed=SEED)
    rng = random.Random(8)
    clients = {seat: ApiClient(user) for seat, user in seated_users(game).items()}
    clients[None] = ApiClient(people[3])
    knowledge = Knowledge(3)
    knowledge.update(game.engine_state())
    for until in (15, 60, 140):
        while game.version < until:
            game = play(game, rng, until=game.version + 1)
            knowledge.update(game.engine_state())
        state = game.engine_state()
        for reader, client in clients.items():
            response = client.get(f"/api/games/{game.pk}/record")
            assert response.status_code == 200, response.data
            record = response.data
            where = f"{reader}'s record at version {state.version}"
            assert "moves" not in record and "setup" not in record
            assert record["seat"] == reader and record["view"] == engine.view(state, reader)
            assert len(record["events"]) == state.version + 1
            seen = knowledge.seen_shelved
            assert_view_keeps_secrets(record, record["view"], state, reader, where, seen)
            knowledge.assert_no_leak(json.dumps(record), reader, where)


def test_a_finished_record_is_complete_for_staff_and_public_for_others(
    finished, people, django_user_model
):
    """Staff get the setup with its seed and every move: it replays to the stored game. Anyone
    else gets `public_setup` (no seed: it would recompute every hidden card) and the moves as
    `public_action` gives them, and no card that was never shown at the table nor in the open
    hands of any step (X77), through the API and the page's download alike."""
    staff = django_user_model.objects.create_user("archivist", is_staff=True)
    complete = ApiClient(staff).get(f"/api/games/{finished.pk}/record").data
    assert complete["complete"] is True and complete["setup"] == finished.setup
    assert (complete["kind"], complete["variant"]) == ("exlibris", "standard")
    moves = [(move["seat"], move["action"]) for move in complete["moves"]]
    assert engine.dumps(engine.replay(complete["setup"], moves)) == finished.state
    assert complete["result"] == finished.result

    states = replay.states_of(finished)
    known = knowledge_by_step(states, 3)
    opened = [cards_in(json.dumps(engine.open_hands_view(states, k))) for k in range(len(states))]
    readings = []
    for reader in (people[0], people[3]):
        downloaded = browser(reader).get(reverse("game_record", args=[finished.pk]))
        assert downloaded.status_code == 200
        api = ApiClient(reader).get(f"/api/games/{finished.pk}/record").data
        # The page's download is a second door to the same record: both are scanned.
        readings += [(reader, api), (reader, json.loads(downloaded.content))]
    for reader, record in readings:
        assert record["complete"] is False
        assert record["setup"] == engine.public_setup(finished.setup)
        assert "seed" not in record["setup"]
        assert not re.search(rf"(?<!\d){SEED}(?!\d)", json.dumps(record))
        reader_seat = Visitor.of(finished, reader).seat
        assert [move["action"] for move in record["moves"]] == [
            engine.public_action(seat, action, reader_seat) for seat, action in moves
        ]
        # Move k names only cards the table saw by then or that sat in a hand around it,
        # which the open replay shows anyway: never one still in the deck, say.
        for move in record["moves"]:
            step = move["seq"]
            allowed = known[step][None] | opened[step - 1] | opened[step]
            leaked = cards_in(json.dumps(move)) - allowed
            assert not leaked, f"move {step} of {reader}'s record names {sorted(leaked)}"
        text = json.dumps({**record, "moves": []})
        leaked = cards_in(text) - cards_in(json.dumps(engine.view(states[-1], None)))
        assert not leaked, f"the record read by {reader} shows {sorted(leaked)}"


# ------------------------------------------------------------------------- history, ratings


def test_the_history_lists_the_game_under_its_kind_and_variant(finished, people):
    client = browser(people[1])
    listed = client.get(reverse("my_games"), {"variant": "exlibris/standard"})
    html = listed.content.decode()
    assert listed.status_code == 200
    assert re.findall(r'<tr data-game="(\d+)"', html) == [str(finished.pk)]
    assert replay_url(finished) in html
    assert not cards_in(html), "a history entry names no card"
    other = client.get(reverse("my_games"), {"variant": "biblios/biblios"}).content.decode()
    assert f'data-game="{finished.pk}"' not in other
    assert "exlibris/standard" in dict(registry.variant_choices())


def test_a_rated_game_rates_its_kind_and_variant_and_shows_on_the_boards(finished, people):
    """Ratings are per (kind, variant): the three players get an Ex Libris standard rating of
    one game, and nothing else; the leaderboard filtered to it and each profile show it."""
    ratings = Rating.objects.filter(user__in=people[:3])
    assert set(ratings.values_list("kind", "variant", "games")) == {("exlibris", "standard", 1)}
    places = {seat.user_id: seat.place for seat in finished.seats.all()}
    changes = RatingChange.objects.filter(game=finished)
    assert changes.count() == 3
    best = max(changes, key=lambda change: change.delta)
    assert places[best.user_id] == 1, "the winner gains most"
    leaderboard = browser().get(
        reverse("ratings:leaderboard"), {"kind": "exlibris", "variant": "standard"}
    )
    assert leaderboard.status_code == 200
    table = leaderboard.content.decode()
    table = table[table.index('<table class="tables leaderboard">') :]
    assert set(re.findall(r'href="/accounts/u/([^/]+)/"', table)) == {"hist0", "hist1", "hist2"}
    biblios = browser().get(reverse("ratings:leaderboard"), {"kind": "biblios"}).content.decode()
    assert "hist0" not in biblios
    rows = ApiClient(people[3]).get(
        reverse("ratings:api_leaderboard") + "?kind=exlibris&variant=standard"
    )
    assert rows.status_code == 200 and rows.data["count"] == 3
    for user in people[:3]:
        profile = browser(people[3]).get(reverse("accounts:profile", args=[user.username]))
        body = profile.content.decode()
        rating = Rating.objects.get(user=user)
        assert f"<strong>{rating.rating:.0f}</strong> after 1 rated game" in body
        assert 'id="rating-exlibris-standard"' in body
        assert "?kind=exlibris&amp;variant=standard" in body
        assert f'<a href="/games/{finished.pk}/">' in body  # among its recent games


# ---------------------------------------------------------------------------------- inspector


def inspect_url(game: Game, **query) -> str:
    tail = "&".join(f"{key}={value}" for key, value in query.items())
    return reverse("admin:games_game_inspect", args=[game.pk]) + (f"?{tail}" if tail else "")


def secret_event_step(states) -> int:
    """The first step whose last move made an event some seat may not see (a draw, X29)."""
    return next(k for k, state in enumerate(states) if any("secret" in e for e in state["events"]))


def test_the_inspector_shows_every_card_of_any_step(finished, admin_client):
    """Staff see the whole state of a step (the deck in order, every hand), a step after a draw
    (whose event only the drawer sees, X29) included."""
    states = moderation.check_integrity(finished).states
    for step in (finished.version // 3, secret_event_step(states)):
        html = admin_client.get(inspect_url(finished, move=step)).content.decode()
        assert "integrity-ok" in html
        assert set(states[step]["deck"]) <= cards_in(html)
        for record in states[step]["seats"]:
            assert set(record["hand"]) <= cards_in(html)


def test_the_inspector_is_for_staff_and_its_check_finds_a_tampered_move(finished, admin_client):
    """The integrity check replays the log and names the first move that no longer matches."""
    assert moderation.check_integrity(finished).ok
    last = admin_client.get(inspect_url(finished)).content.decode()
    assert "integrity-ok" in last and set(finished.engine_state()["deck"]) <= cards_in(last)
    assert browser(finished.host).get(inspect_url(finished)).status_code == 302
    moves = list(finished.moves.order_by("seq").values_list("seat", "action"))
    seq, other = next(
        (seq, action)
        for seq in range(20, finished.version)
        for action in engine.legal_actions(
            engine.replay(finished.setup, moves[: seq - 1]), moves[seq - 1][0]
        )
        if action != moves[seq - 1][1]
    )
    Move.objects.filter(game=finished, seq=seq).update(action=other)
    found = moderation.check_integrity(finished)
    assert not found.ok and found.first_divergence == seq
    Move.objects.filter(game=finished, seq=seq).update(action={"type": "fly"})
    found = moderation.check_integrity(finished)
    assert found.first_divergence == seq and "refuses" in found.problem
