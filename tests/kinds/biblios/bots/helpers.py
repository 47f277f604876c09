"""Shared helpers for the bot tests: games played by bots, and mid-game positions to probe."""

import random

from games.kinds.biblios import bots
from games.kinds.biblios import engine as biblios

TINY_BUDGET = 0.02  # Abbot CPU seconds per decision in the tests: legal play, not strength


def positions(num_players: int, seed: int, *, every: int = 7, options=None, edition="biblios"):
    """(state, memories) at every `every`-th decision of a game of Scholars, memories as seen."""
    state = biblios.new_game(num_players, seed=seed, options=options, variant=edition)
    memories = [bots.new_memory(seat, num_players) for seat in range(num_players)]
    rng = random.Random(seed)
    while True:
        for seat, memory in enumerate(memories):
            bots.observe(
                memory, {"version": state.version, "events": biblios.events_for(state, seat)}
            )
        seats = biblios.to_act(state)
        if not seats:
            return
        if state.version % every == 0:
            yield state, memories
        seat = seats[0]
        view = biblios.view(state, seat)
        state = biblios.apply_action(state, seat, bots.choose("scholar", view, memories[seat], rng))
