"""The Outlook: its caches are keyed by what a card is worth, not by its id (the premise
checked); its style's spread is how far a lead in a category is trusted."""

from collections import defaultdict

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bots.memory import Knowledge
from games.kinds.biblios.bots.valuation import (
    CARD_CAT,
    SCHOLAR,
    WORTH_KEY,
    Outlook,
    Style,
    outlook_from_view,
)
from games.kinds.biblios.engine.cards import KIND, VALUE

from .helpers import positions


def test_cards_sharing_a_worth_key_are_worth_the_same_to_every_seat():
    groups = defaultdict(list)
    for card, key in WORTH_KEY.items():
        groups[key].append(card)
    assert any(len(cards) > 1 for key, cards in groups.items() if key[0] == "church")
    checked = 0
    for state, memories in positions(3, 12, every=25):
        seat = biblios.to_act(state)[0]
        view = biblios.view(state, seat)
        outlook = outlook_from_view(view, Knowledge(view, memories[seat]))
        for cards in groups.values():
            for getter in range(3):
                # _effect is the uncached computation, so each card is worked out afresh.
                worths = {outlook._effect(seat, getter, card) for card in cards}
                assert len(worths) == 1, cards
            if KIND[cards[0]] == "category":
                c, value = CARD_CAT[cards[0]], VALUE[cards[0]]
                assert outlook.keep_value(seat, cards[-1]) == -outlook.category_effect(
                    seat, seat, c, -value
                )
        checked += 1
    assert checked >= 3


def test_a_wider_spread_trusts_a_lead_less_while_much_is_still_to_be_dealt():
    totals = [[6, 0, 0, 0, 0], [2, 0, 0, 0, 0]]  # seat 0 leads the first category by 4
    wary = Style(spread_scale=2 * SCHOLAR.spread_scale)

    def lead_chance(style: Style, unsettled: float) -> float:
        outlook = Outlook([3] * 5, totals, [0, 0], [unsettled] * 5, 10, 20, style)
        return outlook.chances[0][0]

    for unsettled in (4, 40):
        assert 0.5 < lead_chance(wary, unsettled) < lead_chance(SCHOLAR, unsettled) < 1
    # Both grow surer as the category's cards are dealt out.
    assert lead_chance(wary, 4) > lead_chance(wary, 40)
    assert lead_chance(SCHOLAR, 4) > lead_chance(SCHOLAR, 40)
