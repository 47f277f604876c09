"""The Ex Libris bots (`games.kinds.exlibris.bots`): legal in every mode to a scored end (X86),
remembering what the view shows once (X83), and greedy where the inspection form says so (X14,
X29, X52, X68, X69, X75). Their honesty (X77) is every game's bots' (tests/kinds/
test_conformance.py), as is their purity (test_engine_purity.py).

Hand-made positions are views of a real deal with the seat's part edited: the bots read nothing
else."""

import random

import pytest

from games.kinds.exlibris import bots
from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring, shelf_moves
from games.kinds.exlibris.engine.cards import CARD_IDS, CARDS

LEVELS = bots.LEVELS
SMALLEST, MIDDLE, LARGEST = CARD_IDS[0], CARD_IDS[len(CARD_IDS) // 2], CARD_IDS[-1]


def positions(players, seed, *, variant="standard", options=None, every=9, finals=None):
    """(state, memories) at every `every`-th step of a game of Greedy and Random seats (Greedy
    at even seats), each memory fed the events its seat saw; `finals`, a list, receives the
    last state and memories."""
    state = E.new_game(players, seed=seed, variant=variant, options=options)
    memories = [bots.new_memory(seat, players) for seat in range(players)]
    rng = random.Random(seed)
    while True:
        for seat, memory in enumerate(memories):
            bots.observe(memory, {"version": state.version, "events": E.events_for(state, seat)})
        seats = E.to_act(state)
        if not seats:
            if finals is not None:
                finals += [state, memories]
            return
        if state.version % every == 0:
            yield state, memories
        seat = seats[0]
        level = "greedy" if seat % 2 == 0 else "random"
        action = bots.choose(level, E.view(state, seat), memories[seat], rng)
        state = E.apply_action(state, seat, action)


def play(players, seed, *, variant="standard", options=None):
    """The last state and memories of a whole game, and its number of steps."""
    finals = []
    steps = sum(
        1
        for _ in positions(players, seed, variant=variant, options=options, every=1, finals=finals)
    )
    return finals[0], finals[1], steps


def test_x83_memory_remembers_the_solo_discards_the_view_shows_one_at_a_time():
    """Solo shows only the Public Library's top card (X83); the bot's memory keeps the cards its
    events showed going there, all of them really in it at the end (X84)."""
    probes = [
        (state, list(memories[0]["discarded"]))
        for state, memories in positions(1, 8, options={"difficulty": 4}, every=5)
    ]
    state, remembered = probes[-1]
    assert len(E.view(state, 0)["discard"]) <= 1 < len(remembered)
    assert set(remembered) <= set(state["discard"])


def test_x45_memory_forgets_a_card_the_town_dump_takes_back_out_of_the_discard_pile():
    memory = bots.new_memory(0, 1)
    discarded = {"type": "solo_discard", "cards": [SMALLEST, MIDDLE]}
    bots.observe(memory, {"version": 1, "events": [discarded]})
    took = {"type": "took", "seat": 0, "tile": "dump", "card": SMALLEST, "source": "discard"}
    bots.observe(memory, {"version": 2, "events": [took]})
    assert memory["discarded"] == [MIDDLE]


# ------------------------------------------------------------------------------ whole games


def modes():
    """Every player count and variant (X78-X80) and every solo difficulty (X82, X85), each
    variant at one multiplayer count in turn to keep the suite quick."""
    tables = [(players, "standard", None) for players in (2, 3, 4)]
    tables += [(2 + i % 3, variant, None) for i, variant in enumerate(E.VARIANTS[1:])]
    tables += [(1, "standard", {"difficulty": d}) for d in range(1, 8)]
    tables.append((1, "friendly", {"difficulty": 2}))
    return tables


@pytest.mark.parametrize("players, variant, options", modes())
def test_x86_greedy_and_random_play_every_mode_to_a_scored_end(players, variant, options):
    """Every action comes from `legal_actions` (apply_action refuses anything else) and the
    game reaches its inspection (X68-X76, solo X84)."""
    final, _, steps = play(players, players * 100 + len(variant), variant=variant, options=options)
    assert final["phase"] == "over" and steps > 20
    result = E.result(final)
    assert sorted(row["seat"] for row in result["players"]) == list(range(players))
    assert all(isinstance(row["total"], int) for row in result["players"])


# ------------------------------------------------------------------------------ greedy choices


def shelf_of(cards_by_cell: dict) -> dict:
    """A bookshelf of face-up cards (X12), keys in reading order."""
    return {
        bs.cell_key(cell): {"top": card, "up": True, "under": None}
        for cell, card in sorted(cards_by_cell.items())
    }


def edited_view(pending, legal, *, shelf=None, hand=(), final=False):
    """The view of the seat asked first in a real beginners' deal (X78: no draft), with its
    bookshelf, hand, decision and legal actions replaced."""
    state = E.new_game(2, seed=3, variant="beginner")
    seat = E.to_act(state)[0]
    view = E.view(state, seat)
    mine = view["seats"][seat]
    mine.update(bookshelf=shelf or {}, hand=list(hand), hand_size=len(hand), pre_flips=[])
    view.update(pending={"seat": seat, **pending}, legal_actions=legal, final_round=final)
    return view


def greedy(view):
    return bots.choose("greedy", view, None, random.Random(0))


def flips(shelf):
    return scoring.alphabetical(shelf)[1]


def test_x14_x69_greedy_shelves_where_the_alphabetical_order_holds():
    shelf = shelf_of({(0, 0): MIDDLE})
    cells = bs.shelving_cells(shelf)
    legal = [{"type": "cell", "cell": list(cell)} for cell in cells]
    view = edited_view({"kind": "shelve_cell", "card": SMALLEST}, legal, shelf=shelf)
    chosen = greedy(view)
    assert chosen in legal
    assert any(flips(bs.shelve(shelf, SMALLEST, cell)) for cell in cells)
    assert not flips(bs.shelve(shelf, SMALLEST, chosen["cell"]))


def test_x68_greedy_pre_flips_a_card_that_would_cost_the_cards_after_it():
    """A1 (X69) would turn down the three cards after the last letter; turned down first, it
    alone is lost (the rulebook's pre-flip example). In order, no flip helps: done."""
    banned = edited_view({"kind": "flip"}, [])["banned"]
    clean = [card for card in CARD_IDS if banned not in CARDS[card].books]
    after, last = clean[10:40:10], clean[-1]
    shelf = shelf_of({(0, 0): last, **{(0, i + 1): card for i, card in enumerate(after)}})
    assert len(flips(shelf)) == 3
    legal = [{"type": "flip", "cell": [0, col]} for col in range(4)] + [{"type": "done"}]
    assert greedy(edited_view({"kind": "flip"}, legal, shelf=shelf, final=True)) == legal[0]
    in_order = shelf_of({(0, i): card for i, card in enumerate([*after, last])})
    assert greedy(edited_view({"kind": "flip"}, legal, shelf=in_order, final=True)) == legal[-1]


def test_x29_x73_x75_greedy_takes_its_focus_books_over_banned_ones():
    view = edited_view({"kind": "take_tile_card", "tile": "bookshop", "rule": "X44"}, [])
    focus, banned, prominent = (
        view["seats"][view["seat"]]["focus"],
        view["banned"],
        view["prominent"],
    )
    others = [card for card in CARDS.values() if prominent not in card.books]
    wanted = max(
        (card for card in others if banned not in card.books),
        key=lambda card: card.books.count(focus),
    )
    shunned = max(
        (card for card in others if focus not in card.books),
        key=lambda card: card.books.count(banned),
    )
    assert focus in wanted.books and banned in shunned.books
    view["legal_actions"] = [{"type": "take", "card": c} for c in (shunned.id, wanted.id)]
    assert greedy(view) == {"type": "take", "card": wanted.id}


def test_x52_greedy_moves_a_run_to_mend_the_alphabetical_order():
    """Shelfmasons Guild: first cell, last cell, destination (X87), each chosen from the view;
    the move it makes leaves no card for A1 to turn down."""
    shelf = shelf_of({(0, 0): MIDDLE, (0, 1): SMALLEST, (1, 0): LARGEST})
    assert flips(shelf)
    starts = [{"type": "run", "cell": list(c)} for c in shelf_moves.run_starts(shelf)]
    start = greedy(edited_view({"kind": "run_start"}, [*starts, {"type": "pass"}], shelf=shelf))
    assert start["type"] == "run"
    ends = [
        {"type": "run_end", "cell": list(c)} for c in shelf_moves.run_ends(shelf, start["cell"])
    ]
    end = greedy(edited_view({"kind": "run_end", "start": start["cell"]}, ends, shelf=shelf))
    spots = shelf_moves.run_destinations(shelf, start["cell"], end["cell"])
    legal = [{"type": "move", "cell": list(c)} for c in spots]
    pending = {"kind": "run_dest", "start": start["cell"], "end": end["cell"]}
    dest = greedy(edited_view(pending, legal, shelf=shelf))
    assert not flips(shelf_moves.move_run(shelf, start["cell"], end["cell"], dest["cell"]))


def test_x86_an_unknown_decision_gets_a_legal_answer_that_gains_over_declining():
    """A decision kind the Greedy was not written for (new locations and powers land in the
    engine over time) is still answered from `legal_actions`: a card coming in first, then any
    action rather than declining."""
    taking = [{"type": "pass"}, {"type": "mystery"}, {"type": "take", "card": MIDDLE}]
    assert greedy(edited_view({"kind": "not_yet_known"}, taking)) == taking[-1]
    acting = [{"type": "stop"}, {"type": "mystery", "slot": 2}]
    assert greedy(edited_view({"kind": "not_yet_known"}, acting)) == acting[-1]
    odd_cells = [{"type": "tuck", "cell": [0, 1], "side": "left"}, {"type": "cell"}]
    pending = {"kind": "shelve_cell", "card": SMALLEST}
    assert greedy(edited_view(pending, odd_cells, shelf=shelf_of({(0, 0): MIDDLE}))) in odd_cells
