"""The Greedy's valuation (`games.kinds.exlibris.bots.valuation`) remembers bookshelves' worths
across decisions: with the memo full of other seats' and other moments' bookshelves, every
value, every best shelving and every Greedy decision is exactly what the inspection form's own
functions, computed afresh, give."""

import random

import pytest

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.bots import greedy, valuation
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring

from .test_bots import modes, positions


class Afresh(valuation.Outlook):
    """The valuation computed from the scoring functions every time, nothing remembered."""

    def value(self, shelf, shelf_signature=None):
        kept, _ = scoring.alphabetical(shelf)
        counts = scoring.category_counts(kept)
        worth = scoring.stability(kept) + self.counts_worth(counts)
        if not self.final:
            flexibility = valuation.flexibility(valuation.spans(kept))
            worth += valuation.CARD_WORTH * len(shelf) + valuation.FLEXIBILITY * flexibility
        return worth

    def best_cell(self, card, shelf=None):
        shelf = self.shelf if shelf is None else shelf
        kept = scoring.alphabetical(shelf)[0]
        return self._best_cell(card, self.value(shelf), kept, valuation.spans(kept))

    def final_total(self, shelf, flips):
        for cell in flips:
            shelf = bs.flip_down(shelf, cell)
        kept, _ = scoring.alphabetical(shelf)
        return scoring.stability(kept) + self.form_points(scoring.category_counts(kept))

    def form_points(self, counts):
        return (
            self.b2(counts[self.prominent])
            + scoring.banned_points(counts, self.banned)
            + scoring.diversity(counts, self.banned)
            + scoring.focus_points(counts, self.focus)
        )

    def category_worth(self, category):
        counts = scoring.category_counts(scoring.alphabetical(self.shelf)[0])
        more = {**counts, category: counts[category] + 1}
        return self.counts_worth(more) - self.counts_worth(counts)


def rival_prominent(view: dict) -> list[int] | None:
    if view["players"] == 1:
        return None
    return [
        scoring.category_counts(scoring.alphabetical(seat["bookshelf"])[0])[view["prominent"]]
        for seat in view["seats"]
        if seat["seat"] != view["seat"]
    ]


@pytest.mark.parametrize("players, variant, options", modes())
def test_remembered_worths_are_the_forms_own(players, variant, options):
    checked = 0
    games = positions(players, 7 + players, variant=variant, options=options, every=3)
    for state, memories in games:
        for seat in range(players):
            view = E.view(state, seat)
            quick = valuation.Outlook(view, memories[seat], random.Random(1))
            fresh = Afresh(view, memories[seat], random.Random(1))
            assert rival_prominent(view) in (None, quick.rival_prominent)
            assert quick.base == fresh.base
            kept = scoring.alphabetical(quick.shelf)[0]
            assert (quick.kept, quick.spans) == (kept, valuation.spans(kept))
            for other in view["seats"]:
                shelf = other["bookshelf"]
                assert quick.value(shelf) == fresh.value(shelf)
                assert quick.final_total(shelf, []) == fresh.final_total(shelf, [])
            for card in quick.hand:
                assert quick.best_cell(card) == fresh.best_cell(card)
                assert quick.take_value(card) == fresh.take_value(card)
            assert quick.category_worth(view["prominent"]) == fresh.category_worth(
                view["prominent"]
            )
            if view["legal_actions"]:
                seed = state.version
                chosen = greedy.decide(view, memories[seat], random.Random(seed))
                expected = greedy.decide(view, memories[seat], random.Random(seed), Afresh)
                assert chosen == expected
                checked += 1
    assert checked > 20
