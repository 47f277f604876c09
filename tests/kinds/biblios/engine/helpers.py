"""Shared helpers for engine tests: scripted decks and driving a game by hand."""

import random
import re

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, GOLD_BY_VALUE

FIXED_GOLD = biblios.FIXED_GOLD_REMOVED


def scripted_deck(num_players: int, top: list[str]) -> list[str]:
    """A legal draw pile (R1) whose first cards are `top`, the rest filled in deck order.

    The fixed Gold of a 2- or 3-player game is left out of the fill, so the result is a pile
    some shuffle could have produced.
    """
    if len(set(top)) != len(top):
        raise ValueError("a card is named twice in the scripted top")
    keep_out = set(top)
    fixed = FIXED_GOLD[num_players]
    for value in (1, 2, 3):
        spare = [card for card in GOLD_BY_VALUE[value] if card not in keep_out]
        keep_out.update(spare[:fixed])
    fill = [card for card in CARD_IDS if card not in keep_out]
    deck = list(top) + fill
    return deck[: biblios.DRAW_PILE_SIZE[num_players]]


def scripted_game(num_players: int, top: list[str], **kwargs) -> biblios.State:
    """A new game whose draw pile starts with `top`; seat 0 starts unless told otherwise."""
    kwargs.setdefault("first_player", 0)
    kwargs.setdefault("seed", 1)
    return biblios.new_game(num_players, deck=scripted_deck(num_players, top), **kwargs)


def act(state: biblios.State, *moves) -> biblios.State:
    """Apply (seat, action) pairs in order, checking each is listed by legal_actions."""
    for seat, action in moves:
        assert action in biblios.legal_actions(state, seat) or action["type"] == "pay", (
            f"{action} not listed for seat {seat}: {biblios.legal_actions(state, seat)}"
        )
        state = biblios.apply_action(state, seat, action)
    return state


def random_playout(state: biblios.State, rng: random.Random, stop=None):
    """Play uniformly random legal actions; yields (state, seat, action) before each action.

    Stops at the end of the game or when `stop(state)` is true.
    """
    while biblios.to_act(state) and not (stop and stop(state)):
        seat = biblios.to_act(state)[0]
        action = rng.choice(biblios.legal_actions(state, seat))
        yield state, seat, action
        state = biblios.apply_action(state, seat, action)
    yield state, None, None


def play_randomly(state: biblios.State, rng: random.Random, stop=None) -> biblios.State:
    """The state reached by random legal play (to the end, or until `stop(state)`)."""
    final = state
    for reached, _, _ in random_playout(state, rng, stop):
        final = reached
    return final


def place(to: str) -> dict:
    return {"type": "place", "to": to}


def pick(card: str) -> dict:
    return {"type": "pick", "card": card}


def bid(amount: int) -> dict:
    return {"type": "bid", "amount": amount}


PASS = {"type": "pass"}
REFUSE = {"type": "refuse"}
DISCARD_CHURCH = {"type": "discard_church"}


# ------------------------------------------------------------------ dealt games (added helpers)

GIFT_TURNS = {n: biblios.DRAW_PILE_SIZE[n] // (n + 1) for n in (2, 3, 4)}  # 20, 18, 16


def _fill_order(kinds) -> list[str]:
    """Filler cards: the preferred kinds first (in deck order), then any other card."""
    from games.kinds.biblios.engine.cards import KIND

    kinds = tuple(kinds) + tuple(k for k in ("category", "gold", "church") if k not in kinds)
    return [card for kind in kinds for card in CARD_IDS if KIND[card] == kind]


def dealt_plan(
    num_players: int,
    hands: list[list[str]],
    auction: list[str],
    *,
    first_player: int = 0,
    hand_fill=("category", "gold", "church"),
    auction_fill=("category", "gold", "church"),
):
    """A legal draw pile (R1) and the gift turns that give each seat `hands[seat]` and put
    `auction` into the auction pile, padded with filler cards (kinds in the given preference).

    Every gift turn each seat receives exactly one card (the active player's self card, or the
    public card picked), so after the gift phase seat s holds hands[s] padded to GIFT_TURNS cards.
    Turn t's cards are drawn in the order: active's card (to self), auction card, then the
    public cards of the players on the active's left, in picking order.

    Returns (deck, turns) where turns is a list of (active, [(card, to)], [(picker, card)]).
    """
    n, turns = num_players, GIFT_TURNS[num_players]
    hands = [list(hand) for hand in hands] + [[] for _ in range(n - len(hands))]
    auction = list(auction)
    named = [card for hand in hands for card in hand] + auction
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    if any(len(hand) > turns for hand in hands) or len(auction) > turns:
        raise ValueError(f"at most {turns} cards per hand and in the auction pile")
    named_set = set(named)
    out = set()
    for value in (1, 2, 3):  # R1: the fixed Gold stays out of the deck
        spare = [card for card in GOLD_BY_VALUE[value] if card not in named_set]
        out.update(spare[len(spare) - FIXED_GOLD[num_players] :])
    used = named_set | out
    for hand in hands:
        for card in _fill_order(hand_fill):
            if len(hand) == turns:
                break
            if card not in used:
                hand.append(card)
                used.add(card)
    for card in _fill_order(auction_fill):
        if len(auction) == turns:
            break
        if card not in used:
            auction.append(card)
            used.add(card)
    deck, plan = [], []
    for t in range(turns):
        active = (first_player + t) % n
        others = [(active + k) % n for k in range(1, n)]
        order = [(hands[active][t], "self"), (auction[t], "auction")]
        order += [(hands[seat][t], "public") for seat in others]
        deck += [card for card, _ in order]
        plan.append((active, order, [(seat, hands[seat][t]) for seat in others]))
    return deck, plan


def play_gift_turn(state, active, order, picks, on_church=None):
    """Play one planned gift turn; a church card acquired is resolved by `on_church(state)`
    (an action for the owner) or discarded."""

    def settle(state):
        while state.step == "church":
            owner = state.church[1]
            action = on_church(state) if on_church else DISCARD_CHURCH
            state = act(state, (owner, action))
        return state

    for card, to in order:
        assert state.drawing == card, (state.drawing, card)
        state = settle(act(state, (active, place(to))))
    for seat, card in picks:
        state = settle(act(state, (seat, pick(card))))
    return state


def deal_game(
    num_players: int,
    hands: list[list[str]],
    auction: list[str] = (),
    *,
    first_player: int = 0,
    seed=1,
    options=None,
    variant="biblios",
    hand_fill=("category", "gold", "church"),
    auction_fill=("category", "gold", "church"),
    on_church=None,
):
    """A game played through the whole gift phase by plan (see `dealt_plan`): returns the state
    at the first auction, with seat s holding hands[s] (padded with filler)."""
    deck, plan = dealt_plan(
        num_players, hands, auction, first_player=first_player,
        hand_fill=hand_fill, auction_fill=auction_fill,
    )  # fmt: skip
    state = biblios.new_game(
        num_players, seed=seed, deck=deck, first_player=first_player,
        options=options, variant=variant,
    )  # fmt: skip
    for active, order, picks in plan:
        state = play_gift_turn(state, active, order, picks, on_church)
    return state


def pass_round(state):
    """Everyone passes the current auction card (R9: it leaves the game)."""
    card = state.auction_card
    while state.step == "bid" and state.auction_card == card:
        state = act(state, (state.bidder, PASS))
    return state


def pass_until(state, card):
    """Pass every auction until `card` is the one on offer."""
    while state.auction_card != card:
        assert state.phase == "auction", f"{card} was never auctioned"
        state = pass_round(state)
    return state


def pass_to_end(state):
    """Pass every remaining auction: the game ends with the hands as they are."""
    while state.phase == "auction":
        assert state.step == "bid"
        state = pass_round(state)
    return state


def win_auction(state, winner: int, amount: int):
    """Bidding in which only `winner` bids (`amount`), everyone else passing when asked."""
    while state.step == "bid":
        seat = state.bidder
        if seat == winner and state.high_bidder != winner:
            state = act(state, (seat, bid(amount)))
        else:
            state = act(state, (seat, PASS))
    return state


def first_seed(build, good, seeds=range(200)):
    """The first (seed, state) with good(state), where state = build(seed)."""
    for seed in seeds:
        state = build(seed)
        if good(state):
            return seed, state
    raise AssertionError("no seed in range gives the wanted scenario")


# ------------------------------------------------------------------ property-based test support


def card_ids_in(text: str) -> set[str]:
    """Every card id written anywhere in `text` (JSON or prose), matched as a whole token.

    Ids are made of letters, digits, "_" and "-", so a match must not touch another such
    character: "gold-1-1" is not an id and "gold-1-10" does not contain "gold-1-1". Splitting the
    text into maximal runs of those characters and keeping the runs that are ids finds exactly
    what the word-boundary-aware regex `(?<![\\w-])(id|id|…)(?![\\w-])` finds, several times faster.
    """
    return _ALL_IDS.intersection(_TOKEN.findall(text))


def flat_zones(zones: dict) -> list[str]:
    """The card ids of an omniscient `zones` dict, every hand included, as one list."""
    cards = []
    for name, cards_in_zone in zones.items():
        if name == "hands":
            for hand in cards_in_zone:
                cards.extend(hand)
        else:
            cards.extend(cards_in_zone)
    return cards


@st.composite
def game_setups(draw, num_players=None, variant=None):
    """Keyword arguments for `biblios.new_game`: 2–4 players, either edition, any table options.

    Medieval bluff (R15) is a Biblios option only; the first player is either the seed's or a
    drawn seat (R2).
    """
    n = draw(st.sampled_from((2, 3, 4))) if num_players is None else num_players
    variant = draw(st.sampled_from(biblios.VARIANTS)) if variant is None else variant
    options = {"forbid_uncoverable_bids": draw(st.booleans())}
    if variant == "biblios":
        options["medieval_bluff"] = draw(st.booleans())
    return {
        "num_players": n,
        "seed": draw(st.integers(min_value=0, max_value=2**64)),
        "variant": variant,
        "options": options,
        "first_player": draw(st.none() | st.integers(min_value=0, max_value=n - 1)),
    }


def start(setup: dict) -> biblios.State:
    """`biblios.new_game` from a `game_setups()` example."""
    kwargs = dict(setup)
    return biblios.new_game(kwargs.pop("num_players"), **kwargs)


#: A seed for the random policy that plays a game (kept apart from the game's own seed).
policy_seeds = st.integers(min_value=0, max_value=2**32)

_ALL_IDS = frozenset(CARD_IDS)
_TOKEN = re.compile(r"[\w-]+")


# No "explain" phase: re-running whole games to explain a failure costs minutes on this machine.
PHASES = (Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink)


def budget(examples: int):
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        phases=PHASES,
    )
