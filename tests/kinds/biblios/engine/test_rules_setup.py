"""Setup scenarios: R1 (cards removed), R2 (dice, first player), §8 and the table options."""

from collections import Counter

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, GOLD_BY_VALUE, KIND, VALUE

from .helpers import scripted_deck, scripted_game

PILE = {2: 60, 3: 72, 4: 80}  # printed setup chart: 87 − 6 − 21, 87 − 3 − 12, 87 − 7
REMOVED = {2: 27, 3: 15, 4: 7}
FIXED_GOLD_PER_VALUE = {2: 2, 3: 1, 4: 0}


def gold_counts(cards):
    return Counter(VALUE[card] for card in cards if KIND[card] == "gold")


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, "abc", 987654])
def test_r1_draw_pile_and_removed_counts_per_player_count(n, seed):
    """R1: 2p 60 drawn / 27 removed, 3p 72 / 15, 4p 80 / 7 (the first card is already drawn)."""
    state = biblios.new_game(n, seed=seed)
    zones = biblios.view(state, "all")["zones"]
    assert len(zones["draw_pile"]) + len(zones["drawing"]) == PILE[n]
    assert len(zones["removed"]) == REMOVED[n] == len(state.removed)
    assert biblios.view(state, 0)["removed_count"] == REMOVED[n]
    everything = [card for zone in zones.values() for card in _flat(zone)]
    assert sorted(everything) == sorted(CARD_IDS)


def _flat(zone):
    for item in zone:
        if isinstance(item, list):
            yield from item
        else:
            yield item


@pytest.mark.parametrize("n", [2, 3])
def test_r1_fixed_gold_removed_before_shuffling_in_2p_and_3p(n):
    """R1: 2p removes two Gold of each value, 3p one of each, before the random removal:
    whatever the shuffle, the draw pile never keeps more than 11 − fixed Gold of a value."""
    fixed = FIXED_GOLD_PER_VALUE[n]
    seen_random_gold = False
    for seed in range(40):
        state = biblios.new_game(n, seed=seed)
        out = gold_counts(state.removed)
        for value in (1, 2, 3):
            assert out[value] >= fixed, (seed, value, out)
        drawn = gold_counts(state.draw_pile + [state.drawing])
        assert all(drawn[value] <= 11 - fixed for value in (1, 2, 3))
        # the random removal is on top of the fixed Gold: 21 (2p) / 12 (3p) more cards
        assert len(state.removed) - 3 * fixed == {2: 21, 3: 12}[n]
        if any(out[value] > fixed for value in (1, 2, 3)):
            seen_random_gold = True
    assert seen_random_gold  # random cards removed can be Gold too ("can be of any kind")


def test_r1_four_players_remove_no_fixed_gold():
    """R1: a 4-player game removes only 7 random cards, so some setups keep all 33 Gold."""
    kept_all = [
        seed
        for seed in range(40)
        if sum(gold_counts(biblios.new_game(4, seed=seed).removed).values()) == 0
    ]
    assert kept_all


def test_r1_removed_cards_are_never_shown_to_players():
    """R1/R22: the removed cards are in no seat's or spectator's view, only in the admin's."""
    state = biblios.new_game(3, seed=5)
    import json

    for seat in (0, 1, 2, None):
        text = json.dumps(biblios.view(state, seat))
        assert not [card for card in state.removed if f'"{card}"' in text]
    assert sorted(biblios.view(state, "all")["zones"]["removed"]) == sorted(state.removed)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_every_die_starts_at_3(n):
    state = biblios.new_game(n, seed=3)
    assert state.dice == [3, 3, 3, 3, 3]
    assert set(biblios.view(state, None)["dice"].values()) == {3}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r2_first_player_random_from_seed_unless_given(n):
    """R2: without a host's choice the first player comes from the seed (every seat occurs,
    the same seed always gives the same one); a given first player is used as is."""
    firsts = {seed: biblios.new_game(n, seed=seed).first_player for seed in range(60)}
    assert set(firsts.values()) == set(range(n))
    for seed in range(10):
        assert biblios.new_game(n, seed=seed).first_player == firsts[seed]
    for seat in range(n):
        state = biblios.new_game(n, seed=7, first_player=seat)
        assert state.first_player == seat
        assert state.active == seat
        assert biblios.to_act(state) == [seat]
        assert biblios.view(state, None)["first_player"] == seat


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r1_r2_same_seed_gives_same_setup(n):
    a = biblios.new_game(n, seed="table-42")
    b = biblios.new_game(n, seed="table-42")
    assert biblios.dumps(a) == biblios.dumps(b)
    c = biblios.new_game(n, seed="table-43", first_player=a.first_player)
    assert [a.drawing] + a.draw_pile != [c.drawing] + c.draw_pile  # the seed drives the shuffle


def test_r1_scripted_deck_is_the_draw_pile_top_first():
    top = ["church-up1-1", "gold-3-01", "monks-I"]
    state = scripted_game(2, top=top)
    assert state.drawing == "church-up1-1"
    assert state.draw_pile[:2] == ["gold-3-01", "monks-I"]
    assert len(state.draw_pile) + 1 == 60


def _valid_deck(n):
    return scripted_deck(n, top=[])


@pytest.mark.parametrize(
    "n, mutate",
    [
        (2, lambda deck: deck[:-1]),  # one card short
        (3, lambda deck: deck + [next(c for c in CARD_IDS if c not in deck)]),  # one too many
        (4, lambda deck: deck[:-1] + [deck[0]]),  # a duplicate
        (2, lambda deck: deck[:-1] + ["monks-Z"]),  # unknown id
        (3, lambda deck: deck[:-1] + ["not-a-card"]),
    ],
    ids=["short", "long", "duplicate", "unknown", "unknown-3p"],
)
def test_r1_scripted_deck_validation_errors(n, mutate):
    deck = mutate(_valid_deck(n))
    with pytest.raises(biblios.IllegalAction, match="R1"):
        biblios.new_game(n, seed=1, deck=deck)


def _deck_keeping_most_gold(n):
    """A legal deck that keeps every Gold card R1 allows (all but the fixed ones)."""
    fixed = FIXED_GOLD_PER_VALUE[n]
    gold = [card for value in (1, 2, 3) for card in GOLD_BY_VALUE[value][fixed:]]
    others = [card for card in CARD_IDS if KIND[card] != "gold"]
    deck = gold + others[: PILE[n] - len(gold)]
    biblios.new_game(n, seed=1, deck=deck)  # accepted
    return deck


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("value", [1, 2, 3])
def test_r1_scripted_deck_keeping_too_much_gold_is_refused(n, value):
    """R1: a 2p deck may keep at most 9 Gold of each value, a 3p deck at most 10."""
    deck = _deck_keeping_most_gold(n)
    missing = [card for card in GOLD_BY_VALUE[value] if card not in deck]
    assert len(missing) == FIXED_GOLD_PER_VALUE[n]
    victim = next(card for card in deck if KIND[card] == "category")
    too_much = [missing[0] if card == victim else card for card in deck]
    with pytest.raises(biblios.IllegalAction, match="R1"):
        biblios.new_game(n, seed=1, deck=too_much)


def test_r1_four_player_deck_may_keep_all_gold():
    """R1: no fixed Gold in a 4-player game: a deck with all 33 Gold is a possible shuffle."""
    gold = [card for card in CARD_IDS if KIND[card] == "gold"]
    state = scripted_game(4, top=gold)
    assert sum(gold_counts([state.drawing] + state.draw_pile).values()) == 33
    assert not gold_counts(state.removed)


@pytest.mark.parametrize("players", [0, 1, 5, True, "3"])
def test_r1_only_two_to_four_players(players):
    with pytest.raises(biblios.IllegalAction, match="R1"):
        biblios.new_game(players, seed=1)


def test_r2_first_player_must_be_a_seat():
    for bad in (-1, 3, True, "0"):
        with pytest.raises(biblios.IllegalAction, match="R2"):
            biblios.new_game(3, seed=1, first_player=bad)


def test_r13_r15_table_options_default_off_and_unknown_options_rejected():
    state = biblios.new_game(2, seed=1)
    assert state.options == {"medieval_bluff": False, "forbid_uncoverable_bids": False}
    with pytest.raises(biblios.IllegalAction):
        biblios.new_game(2, seed=1, options={"house_rule": True})
    with pytest.raises(biblios.IllegalAction):
        biblios.new_game(2, seed=1, options={"medieval_bluff": "yes"})
    with pytest.raises(biblios.IllegalAction):
        biblios.new_game(2, seed=1, variant="ex_libris")


def test_r15_s8_medieval_bluff_not_offered_in_scripts_and_scribes():
    """§8: Scripts & Scribes has no Medieval bluff option (R15)."""
    with pytest.raises(biblios.IllegalAction, match="R15"):
        biblios.new_game(3, seed=1, variant="scripts_and_scribes", options={"medieval_bluff": True})
    state = biblios.new_game(
        3, seed=1, variant="scripts_and_scribes", options={"forbid_uncoverable_bids": True}
    )
    assert state.edition == "scripts_and_scribes"
    assert state.options["medieval_bluff"] is False
    assert biblios.new_game(3, seed=1, options={"medieval_bluff": True}).options["medieval_bluff"]


def test_s8_scripts_and_scribes_plays_the_same_deck_and_rules():
    """§8: same deck and same rules: the same seed and the same choices give the same game
    (hands, dice, result) in both editions; only the names differ."""
    import random

    from .helpers import play_randomly

    finals = {}
    for edition in biblios.VARIANTS:
        state = biblios.new_game(3, seed="s8", variant=edition)
        finals[edition] = play_randomly(state, random.Random(8))
    a, b = finals["biblios"], finals["scripts_and_scribes"]
    assert a.phase == b.phase == "over"
    assert a.hands == b.hands and a.dice == b.dice and a.discard == b.discard
    assert biblios.result(a) == biblios.result(b)


def test_s8_scripts_and_scribes_category_names():
    """§8: Illuminators = Monks, Supplies = Pigments, Scribes = Holy Books, Manuscripts,
    Scrolls = Forbidden Tomes, in the same Scriptorium (Value Board) order."""
    from games.kinds.biblios.engine.cards import CATEGORIES, category_name

    names = [category_name(c, "scripts_and_scribes") for c in CATEGORIES]
    assert names == ["Illuminators", "Supplies", "Scribes", "Manuscripts", "Scrolls"]
    assert [category_name(c) for c in CATEGORIES] == [
        "Monks", "Pigments", "Holy Books", "Manuscripts", "Forbidden Tomes",
    ]  # fmt: skip
