"""Every decision the Ex Libris engine asks (spec §0, X86–X88) drawn by the board for the seat
asked: its own prompt (a seat asked while not on turn, at the Cube, the Goblin, the Tax
Collector, the Tavern, the Yard Sale…, reads what is asked of it and by whom), and one button
per legal action, each with words of its own, for the first few times each kind comes up in
seeded random games of every size, with the powers owner-wide so that they come up often."""

import random
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from games.kinds.exlibris import engine, presenter, prompts

from .helpers import SEEDED_GAMES, canonical, moves_in

NAMES = ["Ada", "Bertrand", "Clémence", "Dario"]
GAME = SimpleNamespace(pk=1, status="active", variant_name="Standard", variant="standard")
SHOWN_PER_KIND = 3


def board(view: dict) -> str:
    context = presenter.view_context(GAME, view, NAMES[: view["players"]])
    context.update(log=[], turn={}, message="")
    return render_to_string("exlibris/board.html#board", context)


def decisions():
    """(kind, state, seat) for the first few states asking each decision kind."""
    seen: dict[str, int] = {}
    for players, seed in SEEDED_GAMES:
        rng = random.Random(seed)
        options = {"owner_wide_powers": True} if players > 1 else None
        state = engine.new_game(players, seed=seed, options=options)
        while engine.to_act(state):
            seat = engine.to_act(state)[0]
            kind = state["pending"][-1]["kind"]
            if seen.get(kind, 0) < SHOWN_PER_KIND:
                seen[kind] = seen.get(kind, 0) + 1
                yield kind, state, seat
            state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))


def test_every_decision_has_its_prompt_and_a_button_per_legal_action():
    """X86: the buttons are the legal actions, no more, no fewer; each says what it does."""
    kinds = set()
    for kind, state, seat in decisions():
        kinds.add(kind)
        view = engine.view(state, seat)
        html = board(view)
        moves = moves_in(html)
        assert canonical(m.action for m in moves) == canonical(view["legal_actions"]), kind
        assert kind in prompts.PROMPTS, f"{kind} has no prompt of its own"
        context = presenter.view_context(GAME, view, NAMES[: view["players"]])
        assert context["banner"]["mine"], kind
        buttons = context["actions"]["buttons"] + [
            button for tile in context["actions"]["tiles"].values() for button in tile
        ]
        for button in buttons:
            assert str(button["label"]) not in engine.DECISIONS, f"{kind}: {button} has no words"
        others = [other for other in range(state["players"]) if other != seat]
        for other in others:  # everybody else reads who is asked, and has no button
            waiting = engine.view(state, other)
            assert not moves_in(board(waiting))
            text = presenter.view_context(GAME, waiting, NAMES[: state["players"]])["banner"][
                "text"
            ]
            assert NAMES[seat] in text, f"{kind}: seat {other} is not told who decides"
    assert kinds == set(prompts.PROMPTS), "every decision kind comes up in these games"


@pytest.mark.parametrize("kind", ["cube", "goblin_give", "yard_claim"])
def test_a_seat_asked_off_turn_reads_who_asks_it(kind):
    """X57, X54, X51: the prompt names the player whose assistant or sale asks."""
    for found, state, seat in decisions():
        if found != kind:
            continue
        prompt = presenter.view_context(GAME, engine.view(state, seat), NAMES)["banner"]["text"]
        pending = state["pending"][-1]
        asker = pending.get("owner", pending.get("to", pending.get("seller")))
        assert NAMES[asker] in prompt
        return
    pytest.fail(f"no {kind} decision in these seeded games")
