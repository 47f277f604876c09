"""What a bot knows: its seat's view, plus the card movements it was shown earlier.

A view carries only the last action's events, so a bot that wants to remember who picked or
bought which card must be shown the events of every action, as its seat saw them: `observe`
takes a view (or any dict with that view's "version" and "events") after each action. Nothing
else goes in, so a bot's knowledge is exactly a player's: the board plus the game log.

Memory is plain JSON data (it can be stored between moves): the seat, the last version seen, and
per seat the cards that seat was seen to take into hand and not seen to give up (`known`), and
how many cards left that hand unseen (`lost`: discarded face down for a Gold card, or taken in
a penalty the bot did not witness), any of which may have been a known card.
"""

from games.kinds.biblios.engine import FIXED_GOLD_REMOVED
from games.kinds.biblios.engine.cards import CARD_IDS, GOLD_BY_VALUE, KIND


def new_memory(seat: int, num_players: int) -> dict:
    return {
        "seat": seat,
        "version": -1,
        "known": [[] for _ in range(num_players)],
        "lost": [0] * num_players,
    }


def observe(memory: dict, view: dict) -> dict:
    """Learn from the events of one action (each version is learnt once); returns `memory`."""
    if view["version"] <= memory["version"]:
        return memory
    memory["version"] = view["version"]
    known, lost = memory["known"], memory["lost"]
    for event in view["events"]:
        kind = event["type"]
        if kind in ("picked", "card_bought") and KIND[event["card"]] != "church":
            known[event["seat"]] = [*known[event["seat"]], event["card"]]
        elif kind == "paid":
            _forget(known, event["seat"], event["cards"])
        elif kind == "gave" and "card" not in event:
            lost[event["seat"]] += 1
        elif kind in ("penalty_take", "penalty_discard"):
            if "card" not in event:
                lost[event["loser"]] += 1
                continue
            _forget(known, event["loser"], [event["card"]])
            if kind == "penalty_take":
                known[event["seat"]] = [*known[event["seat"]], event["card"]]
    return memory


def _forget(known: list, seat: int, cards) -> None:
    gone = set(cards)
    known[seat] = [card for card in known[seat] if card not in gone]


def seen_cards(view: dict) -> set:
    """Every card whose place the seat can read off its view."""
    seen = set(view["hand"] or ())
    seen.update(view["public_space"], view["public_discard"])
    seen.update(view["my_auction_cards"], view["my_hidden_discards"])
    if view["auction"]:
        seen.add(view["auction"]["card"])
    if view["church"]:
        seen.add(view["church"]["card"])
    for card in (view["gift"]["drawing"], view["gift"]["self_card"]):
        if card:
            seen.add(card)
    return seen


class Knowledge:
    """The seat's knowledge of where the 87 cards are, from its view and memory.

    - `known[s]`: for the seat itself its hand; for another seat the cards memory saw it take and
      not seen leave. Some of them may be gone unseen: `lost[s]` cards left that hand face down;
    - `unseen_in[s]`: how many cards another seat took unseen (its own self cards, a penalty
      card), so that its hand is `known[s]` plus `unseen_in[s]` unknown cards minus `lost[s]`
      of those (the hand size the view shows);
    - `fixed_removed`: the Gold removed before shuffling (R1), public by the rules; which ids
      is immaterial (Gold of one value is interchangeable), so the lowest unseen ids are taken;
    - `unknown`: every other unseen card, each equally likely to be in any hidden place;
    - `hidden`: how many unknown cards each other hidden place holds (draw pile, removed, the
      other seats' auction-pile cards, a card being drawn or kept by another seat, cards
      discarded face down by others).
    """

    def __init__(self, view: dict, memory: dict | None):
        me, n = view["seat"], view["num_players"]
        self.me, self.n = me, n
        seen = seen_cards(view)
        remembered = memory["known"] if memory else [[] for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.known[me] = list(view["hand"])
        self.lost = [0] * n
        self.unseen_in = [0] * n
        taken = set(seen)
        for seat in range(n):
            if seat == me:
                continue
            cards = [c for c in dict.fromkeys(remembered[seat]) if c not in taken]
            self.known[seat] = cards
            size = view["hand_sizes"][seat]
            lost = memory["lost"][seat] if memory else 0
            # With a missed event the counts may not add up: then more known cards are gone.
            self.unseen_in[seat] = max(0, size - len(cards) + lost)
            self.lost[seat] = len(cards) + self.unseen_in[seat] - size
            taken.update(cards)
        self.fixed_removed = []
        for value in (1, 2, 3):
            spare = [card for card in GOLD_BY_VALUE[value] if card not in taken]
            self.fixed_removed += spare[: FIXED_GOLD_REMOVED[n]]
        taken.update(self.fixed_removed)
        self.unknown = [card for card in CARD_IDS if card not in taken]
        self.hidden = self._hidden_counts(view)

    def _hidden_counts(self, view: dict) -> dict:
        me = self.me
        counts = {
            "draw_pile": view["draw_pile_size"],
            "removed": view["removed_count"] - len(self.fixed_removed),
            "auction_pile": view["auction_pile_size"] - len(view["my_auction_cards"]),
            "drawing": int(
                view["phase"] == "gift" and view["awaiting"]["step"] == "place"
                and view["active"] != me
            ),
        }  # fmt: skip
        # Cards lost unseen are back among the unknown ones, somewhere hidden.
        in_hands = sum(self.unseen_in) - sum(self.lost)
        rest = len(self.unknown) - in_hands - sum(counts.values())
        # The one place no count is shown for: another seat's self card in the gift phase
        # (R3), cards discarded face down by other seats in the auction phase (R12, R15).
        counts["self_card" if view["phase"] == "gift" else "hidden_discard"] = rest
        return counts
