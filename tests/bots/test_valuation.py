"""The Outlook's caches are keyed by what a card is worth, not by its id: the premise checked."""

from collections import defaultdict

from games.bots.memory import Knowledge
from games.bots.valuation import CARD_CAT, WORTH_KEY, outlook_from_view
from games.engine import biblios
from games.engine.cards import KIND, VALUE

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
