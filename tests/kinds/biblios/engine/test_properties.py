"""Property-based tests of the Biblios engine: whole random games checked against invariants.

Every example sets up a game (2–4 players, either edition, any table options, R1/R2) from a
drawn seed and plays it with a random policy (`helpers.random_playout`) seeded by another drawn
integer. Budgets are small and fixed (a 4-player game is ~500 actions) so that this file and
test_secrecy.py together run in well under a minute when they pass; nothing is registered
globally, and the "explain" phase is off (see helpers.PHASES).
"""

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, CATEGORIES, CATEGORY, KIND, LETTER, VALUE

from .helpers import budget, flat_zones, game_setups, policy_seeds, random_playout, start

MAX_ACTIONS = 5000  # a 4-player game takes about 500


def playout(setup: dict, policy_seed: int):
    """(state, seat, action) before every action of one random game, then (final, None, None)."""
    return random_playout(start(setup), random.Random(policy_seed))


def probed_states(setup: dict, policy_seed: int, rate: float):
    """Some states of one random game: the first state of each kind of decision (phase and
    step: placing, picking, a church card in either phase, bidding, paying, giving, the end),
    then each other state with probability `rate`."""
    rng = random.Random(policy_seed ^ 0x5EED)
    kinds = set()
    for state, seat, action in playout(setup, policy_seed):
        kind = (state.phase, state.step)
        if kind not in kinds or rng.random() < rate:
            kinds.add(kind)
            yield state, seat, action


def canonical(action) -> str:
    """An action as JSON text, so that 1, 1.0 and True are told apart."""
    return json.dumps(action, sort_keys=True)


# ------------------------------------------------------------------------- 1. the game ends

# Every edition × option combination the tables allow (R15 is a Biblios option only, spec §8).
TABLES = [
    ("biblios", {"medieval_bluff": bluff, "forbid_uncoverable_bids": forbid})
    for bluff in (False, True)
    for forbid in (False, True)
] + [("scripts_and_scribes", {"forbid_uncoverable_bids": forbid}) for forbid in (False, True)]


def independent_score(hands, dice):
    """R19, R20 worked out here from the deck data: VP and Gold value per seat."""
    n = len(hands)
    vp, gold = [0] * n, [0] * n
    for seat, hand in enumerate(hands):
        gold[seat] = sum(VALUE[card] for card in hand if KIND[card] == "gold")
    for category, die in zip(CATEGORIES, dice, strict=True):
        totals = [
            sum(VALUE[c] for c in hand if KIND[c] == "category" and CATEGORY[c] == category)
            for hand in hands
        ]
        best = max(totals)
        if best == 0:
            continue  # R19: nobody scores a category nobody holds
        tied = [seat for seat in range(n) if totals[seat] == best]
        earliest = {
            seat: min(LETTER[c] for c in hands[seat] if CATEGORY.get(c) == category)
            for seat in tied
        }
        vp[min(tied, key=earliest.__getitem__)] += die
    return vp, gold


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize(("edition", "options"), TABLES)
@budget(4)
@given(seed=st.integers(min_value=0, max_value=2**64), policy_seed=policy_seeds)
def test_every_game_ends_and_is_scored(num_players, edition, options, seed, policy_seed):
    """R8, R9: the gift phase empties the draw pile, every auction card is settled (sold, or
    left out of the game), defaulters are excluded (R14), so every game ends. `to_act` is empty
    exactly when the game is over, an unfinished state always offers its actor an action, and
    the final result (R19–R21) crowns the players with the most VP, then the most Gold."""
    setup = {"num_players": num_players, "seed": seed, "variant": edition, "options": options}
    actions = 0
    for state, seat, _action in playout(setup, policy_seed):
        waiting = biblios.to_act(state)
        assert (waiting == []) == (state.phase == "over"), (state.phase, waiting)
        if waiting:
            assert len(waiting) == 1 and biblios.legal_actions(state, waiting[0])
            with pytest.raises(ValueError):
                biblios.result(state)
            actions += 1
            assert actions < MAX_ACTIONS, "the game does not end"
        else:
            assert seat is None
    final = state
    assert final.phase == "over" and final.step == "over"
    zones = biblios.view(final, "all")["zones"]
    assert zones["draw_pile"] == [] and zones["auction_pile"] == []

    result = biblios.result(final)
    vp, gold = independent_score(zones["hands"], final.dice)
    assert [p["vp"] for p in result["players"]] == vp
    assert [p["gold"] for p in result["players"]] == gold
    winners = result["winners"]
    assert winners, "somebody wins"
    assert sorted(result["ranking"]) == list(range(num_players))
    top_vp = max(vp)
    top_gold = max(gold[s] for s in range(num_players) if vp[s] == top_vp)
    for s in range(num_players):
        if s in winners:  # R21: a winner has the most VP, then the most Gold among those
            assert (vp[s], gold[s]) == (top_vp, top_gold)
        elif (vp[s], gold[s]) == (top_vp, top_gold):  # level on both: a later R21 step decided
            assert result["win_decided_by"] not in ("vp", "gold")
            assert result["players"][s]["place"] > 1
    assert result["shared_win"] == (len(winners) > 1)


# ------------------------------------------------------------------- 2. every card, exactly once


@budget(25)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_every_card_is_in_exactly_one_zone(setup, policy_seed):
    """Spec §1 and R1: the 87 cards are all somewhere (draw pile, removed, hands, the card being
    placed or kept, public space, auction pile or card, church card, discard), each exactly once,
    at every moment of a game."""
    everything = Counter(CARD_IDS)
    for state, _, _ in playout(setup, policy_seed):
        cards = flat_zones(biblios.view(state, "all")["zones"])
        assert Counter(cards) == everything, {
            "missing": sorted(everything - Counter(cards)),
            "extra": sorted(Counter(cards) - everything),
            "version": state.version,
        }


# ------------------------------------------------------------------ 3. listed actions all apply

ODD_SEATS = [-1, None, "0", True, False, [0], 2**70]


@budget(20)
@given(setup=game_setups(), policy_seed=policy_seeds, tries=st.integers(1, 4))
def test_every_listed_action_applies(setup, policy_seed, tries):
    """R3–R18: whatever `legal_actions` lists for the seat to act is accepted by `apply_action`
    (several listed actions are tried at every state, not only the one played)."""
    rng = random.Random(policy_seed ^ 0x5EED)
    for state, seat, _ in playout(setup, policy_seed):
        if seat is None:
            continue
        listed = biblios.legal_actions(state, seat)
        assert len({canonical(a) for a in listed}) == len(listed), "an action is listed twice"
        for action in rng.sample(listed, min(tries, len(listed))):
            try:
                after = biblios.apply_action(state, seat, copy.deepcopy(action))
            except biblios.IllegalAction as error:
                pytest.fail(f"listed {action} rejected at step {state.step!r}: {error}")
            assert after.version == state.version + 1


@budget(15)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_a_seat_not_to_act_is_offered_nothing(setup, policy_seed):
    """R3, R5, R9, R16: only the seat in `to_act` has actions; every other seat, a seat number
    out of range, a spectator (None) and non-seats get `[]`, at every state, the final one
    included (when nobody is to act)."""
    for state, _, _ in playout(setup, policy_seed):
        n = state.num_players
        waiting = biblios.to_act(state)
        for other in [s for s in range(n) if s not in waiting] + [n, *ODD_SEATS]:
            try:
                offered = biblios.legal_actions(state, other)
            except Exception as error:  # any crash is the failure reported
                pytest.fail(f"legal_actions(seat={other!r}) at {state.step!r} raised {error!r}")
            assert offered == [], (other, waiting, state.step)


# --------------------------------------------------------------------- 4. malformed actions

ACTION_FIELDS = {  # the action shapes of the engine's module docstring
    "place": ("to",),
    "pick": ("card",),
    "use_church": ("dice", "delta"),
    "discard_church": (),
    "bid": ("amount",),
    "pass": (),
    "pay": ("cards",),
    "give": ("card",),
    "refuse": (),
}
NEAR_IDS = [
    "gold-1-1", "gold-1-12", "gold-4-01", "monks-J", "monks-a", "MONKS-A", " monks-A",
    "monks-A ", "monks", "church", "church-up1-3", "", "null", "self", "0",
]  # fmt: skip
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.integers(min_value=-3, max_value=20)
    | st.integers(min_value=-3, max_value=3).map(float)  # 1.0 is not the integer 1 in JSON
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=10)
    | st.sampled_from(CARD_IDS)
    | st.sampled_from(NEAR_IDS)
    | st.sampled_from(CATEGORIES + ("dragons", "Monks"))
    | st.sampled_from(("self", "auction", "public", "Self", "hand"))
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(("type", "card", "to")), inner, max_size=3
        )
    ),
    max_leaves=6,
)
field_values = (
    json_values
    | st.lists(st.sampled_from(CARD_IDS) | st.sampled_from(NEAR_IDS), max_size=4)
    | st.lists(st.sampled_from(CATEGORIES + ("dragons",)), min_size=1, max_size=3)
)
action_types = st.sampled_from(sorted(ACTION_FIELDS))


@st.composite
def well_shaped(draw):
    """The right type with the right keys, the values anything."""
    kind = draw(action_types)
    return {"type": kind, **{key: draw(field_values) for key in ACTION_FIELDS[kind]}}


@st.composite
def misshaped(draw):
    """A known type with a key missing or one too many, or the type itself wrong."""
    action = draw(well_shaped())
    how = draw(st.sampled_from(("extra", "missing", "type")))
    if how == "extra":
        key = draw(st.text(max_size=6) | st.sampled_from(("card", "to", "amount", "dice")))
        if key not in action:
            action[key] = draw(field_values)
    elif how == "missing":
        del action[draw(st.sampled_from(sorted(action)))]
    else:
        action["type"] = draw(
            json_values | st.sampled_from(("Pass", "PASS", " pass", "use-church", "buy", ""))
        )
    return action


junk_actions = (
    json_values  # non-dicts of every kind, and dicts with random keys and values
    | st.tuples(json_values, json_values)
    | well_shaped()
    | misshaped()
)
junk_seats = st.sampled_from(("actor", "other", "actor", "odd"))

# Ways to spoil a listed action so that its shape stays almost right (type confusion above all).
MUTATIONS = (
    "ints_to_floats", "ints_to_strings", "ints_to_bools", "negate", "huge", "upper", "pad",
    "wrap", "unwrap", "duplicate", "replace", "drop", "add",
)  # fmt: skip
mutations = st.tuples(st.sampled_from(MUTATIONS), json_values)


def retyped(value, leaf):
    """`value` with every int (not bool) or str inside it passed through `leaf`."""
    if isinstance(value, list):
        return [retyped(item, leaf) for item in value]
    if isinstance(value, dict):
        return {key: value[key] if key == "type" else retyped(value[key], leaf) for key in value}
    return leaf(value)


def mutate(action: dict, how: str, junk, rng: random.Random) -> dict:
    action = copy.deepcopy(action)
    fields = sorted(key for key in action if key != "type")
    ints = {
        "ints_to_floats": float,
        "ints_to_strings": str,
        "ints_to_bools": lambda v: v == 1,
        "negate": lambda v: -v,
        "huge": lambda v: v + 2**64,
    }
    strs = {"upper": str.upper, "pad": lambda v: f" {v}"}
    if how in ints:
        return retyped(action, lambda v: ints[how](v) if type(v) is int else v)
    if how in strs:
        return retyped(action, lambda v: strs[how](v) if type(v) is str else v)
    if how == "add" or not fields:
        action[rng.choice(("card", "to", "amount", "cards", "dice", "delta", "seat"))] = junk
        return action
    key = rng.choice(fields)
    if how == "drop":
        del action[key]
    elif how == "replace":
        action[key] = junk
    elif how == "wrap":
        action[key] = [action[key]]
    elif how == "unwrap":
        action[key] = action[key][0] if isinstance(action[key], list) and action[key] else None
    elif how == "duplicate":
        value = action[key]
        action[key] = value + value[:1] if isinstance(value, list) else [value, value]
    return action


def accepted_legally(state, seat, action) -> bool:
    """Whether the rules allow `action` by `seat` now: listed verbatim by `legal_actions`, or a
    payment that covers the bid from the seat's own Gold (R11: any covering set, not only the
    minimal ones listed)."""
    if type(seat) is not int or seat not in biblios.to_act(state):
        return False
    if canonical(action) in {canonical(a) for a in biblios.legal_actions(state, seat)}:
        return True
    cards = action.get("cards") if isinstance(action, dict) else None
    return (
        state.step == "pay"
        and action.keys() == {"type", "cards"}
        and action["type"] == "pay"
        and isinstance(cards, list)
        and all(type(card) is str for card in cards)
        and len(set(cards)) == len(cards)
        and all(card in state.hands[seat] and KIND[card] == "gold" for card in cards)
        and sum(VALUE[card] for card in cards) >= state.high_bid
    )


def assert_rejected_or_legal(state, seat, action, snapshot):
    """`snapshot` is a copy of `state` taken beforehand (compared field by field: cheaper than
    JSON; the caller compares the JSON once it has tried all its actions)."""
    try:
        biblios.apply_action(state, seat, action)
    except biblios.IllegalAction:
        pass
    else:
        assert accepted_legally(state, seat, action), (
            f"accepted at step {state.step!r} from seat {seat!r}: {action!r}"
        )
    assert state == snapshot, f"the state changed: {action!r}"


@budget(25)
@given(
    setup=game_setups(),
    policy_seed=policy_seeds,
    junk=st.lists(st.tuples(junk_seats, junk_actions), min_size=1, max_size=10),
    spoilers=st.lists(mutations, min_size=1, max_size=6),
)
def test_malformed_actions_raise_illegal_action_and_change_nothing(
    setup, policy_seed, junk, spoilers
):
    """R3–R18 and the module's action shapes: an action that is not a legal action of the seat
    to act, whatever its shape (not a dict, unknown type, missing or extra keys, wrong field
    types, unknown card ids, bids out of range, floats or strings for integers, a seat out of
    range), raises `IllegalAction` (never TypeError, KeyError…) and leaves the state as it was.
    Junk is tried at the first state of every kind of decision and at a few other states, both
    made from scratch and by spoiling one of the actions listed for the actor."""
    rng = random.Random(policy_seed)
    for state, actor, _ in probed_states(setup, policy_seed, rate=0.03):
        n = state.num_players
        before = biblios.dumps(state)
        snapshot = biblios.loads(before)
        for who, action in junk:
            if who == "actor" and actor is not None:
                seat = actor
            elif who == "other":
                seat = rng.choice([s for s in range(n) if s != actor])
            else:
                seat = rng.choice([-1, n, None, "0", 0.0, True, 2**70, [actor]])
            assert_rejected_or_legal(state, seat, copy.deepcopy(action), snapshot)
        listed = biblios.legal_actions(state, actor) if actor is not None else []
        for how, junk_value in spoilers if listed else ():
            spoilt = mutate(rng.choice(listed), how, junk_value, rng)
            assert_rejected_or_legal(state, actor, spoilt, snapshot)
        assert biblios.dumps(state) == before


@budget(15)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_well_formed_actions_are_illegal_out_of_turn(setup, policy_seed):
    """R3, R5, R9, R16: only the seat to act may act, only with an action of the current step,
    and nobody may act once the game is over; each refusal is an `IllegalAction` that changes
    nothing. The actor's own listed actions are tried from every other seat."""
    sample_of_every_kind = [
        {"type": "place", "to": "public"},
        {"type": "pick", "card": "monks-A"},
        {"type": "use_church", "dice": ["monks"], "delta": 1},
        {"type": "discard_church"},
        {"type": "bid", "amount": 1},
        {"type": "pass"},
        {"type": "pay", "cards": ["gold-3-11"]},
        {"type": "give", "card": "gold-3-11"},
        {"type": "refuse"},
    ]
    steps_for_kind = {
        "place": {"place"},
        "pick": {"pick"},
        "use_church": {"church"},
        "discard_church": {"church"},
        "bid": {"bid"},
        "pass": {"bid"},
        "pay": {"pay"},
        "give": {"give"},
        "refuse": {"pay", "give"},
    }
    rng = random.Random(policy_seed)
    for state, actor, _ in probed_states(setup, policy_seed, rate=0.05):
        n = state.num_players
        before = biblios.dumps(state)
        listed = biblios.legal_actions(state, actor) if actor is not None else []
        for action in rng.sample(listed, min(3, len(listed))) + sample_of_every_kind:
            for seat in range(n):
                allowed_seat = seat == actor
                allowed_step = state.step in steps_for_kind[action["type"]]
                if allowed_seat and allowed_step:
                    continue
                with pytest.raises(biblios.IllegalAction):
                    biblios.apply_action(state, seat, dict(action))
        assert biblios.dumps(state) == before


# ---------------------------------------------------------------------------------- 5. purity


@budget(8)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_apply_action_never_changes_a_state(setup, policy_seed):
    """Module contract ("`apply_action` never changes the state it is given"), needed for replay
    and for keeping old states: the JSON of every state of a game is the same right after the
    action applied to it, and still the same when the game is over (no later action reaches an
    earlier state through shared lists)."""
    seen = []
    for state, seat, action in playout(setup, policy_seed):
        text = biblios.dumps(state)
        seen.append((state, text))
        if seat is not None:
            after = biblios.apply_action(state, seat, action)
            assert biblios.dumps(state) == text, f"{action} changed its input state"
            assert after is not state
    for state, text in seen:
        assert biblios.dumps(state) == text, f"state {state.version} changed later in the game"


def deep_vandalise(value):
    """Change every list and dict inside `value` in place (what a careless caller might do)."""
    if isinstance(value, list):
        for item in value:
            deep_vandalise(item)
        value.append("vandalised")
    elif isinstance(value, dict):
        for item in value.values():
            deep_vandalise(item)
        value["vandalised"] = True


@budget(12)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_a_state_keeps_no_reference_to_the_action_applied(setup, policy_seed):
    """Module contract ("a state is plain data", replayable from its log): once applied, the
    action dict belongs to the caller; changing it (e.g. the "dice" list of a use_church, R17,
    or the "cards" of a payment, R11) must not change the new state."""
    for state, seat, action in playout(setup, policy_seed):
        if seat is None:
            continue
        mine = copy.deepcopy(action)
        after = biblios.apply_action(state, seat, mine)
        text = biblios.dumps(after) if any(isinstance(v, list) for v in action.values()) else None
        if text is not None:
            deep_vandalise(mine)
            assert biblios.dumps(after) == text, f"the new state shares data with {action}"


@budget(8)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_views_and_results_are_the_callers_to_change(setup, policy_seed):
    """R22's `view` is "the only door through which game information leaves the engine": what
    it returns (and `events_for`, `legal_actions`, `result`) must be fresh data, so that a
    caller decorating it (adding names to events, trimming lists…) cannot change the game."""
    rng = random.Random(policy_seed)
    for state, seat, _ in playout(setup, policy_seed):
        interesting = any(
            isinstance(v, list | dict) for e in state.events for v in e.values()
        )  # events with lists or dicts in them (dice moved, Gold paid, options…)
        if not interesting and seat is not None and rng.random() > 0.03:
            continue
        text = biblios.dumps(state)
        for who in [*range(state.num_players), None, "all"]:
            deep_vandalise(biblios.view(state, who))
            deep_vandalise(biblios.events_for(state, who))
        if seat is not None:
            deep_vandalise(biblios.legal_actions(state, seat))
        else:
            deep_vandalise(biblios.result(state))
        assert biblios.dumps(state) == text, (
            f"changing a view changed the state (events: {[e['type'] for e in state.events]})"
        )


# -------------------------------------------------------------------- 6. persistence and replay


@budget(15)
@given(setup=game_setups(), policy_seed=policy_seeds, data=st.data())
def test_dumps_loads_and_replay_give_back_the_same_state(setup, policy_seed, data):
    """Module contract and R22's admin replay: `loads(dumps(s)) == s` at any state, and
    replaying a game's setup (`setup_of`) and its (seat, action) log rebuilds the live state,
    both at the end and at a midpoint. Same seed and same actions: same game."""
    states, log = [], []
    for state, seat, action in playout(setup, policy_seed):
        states.append(state)
        if seat is not None:
            log.append((seat, copy.deepcopy(action)))
    final = states[-1]
    rng = random.Random(policy_seed)
    for state in [states[0], final, *rng.sample(states, min(12, len(states)))]:
        text = biblios.dumps(state)
        again = biblios.loads(text)
        assert again == state
        assert biblios.dumps(again) == text

    midpoint = data.draw(st.integers(min_value=0, max_value=len(log)), label="midpoint")
    for upto in (midpoint, len(log)):
        rebuilt = biblios.replay(biblios.setup_of(states[upto]), log[:upto])
        assert rebuilt == states[upto]
        assert biblios.dumps(rebuilt) == biblios.dumps(states[upto])
    # a stored state replays too, from its own stored setup
    stored = biblios.loads(biblios.dumps(final))
    assert biblios.replay(biblios.setup_of(stored), log) == final


# ------------------------------------------------------------------------------ 8. seeds


@budget(10)
@given(setup=game_setups(), policy_seed=policy_seeds)
def test_same_seed_and_policy_give_the_same_game(setup, policy_seed):
    """Module contract: randomness comes only from the stored seed (R1 shuffle, R2 first
    player, R9 auction-pile shuffle, R14/R15 penalty draws), so the same seed played with the
    same choices gives the identical game, state by state."""
    first = list(playout(setup, policy_seed))
    second = list(playout(setup, policy_seed))
    assert [(seat, a) for _, seat, a in first] == [(seat, a) for _, seat, a in second]
    assert [s for s, _, _ in first] == [s for s, _, _ in second]
    assert biblios.dumps(first[-1][0]) == biblios.dumps(second[-1][0])


@budget(40)
@given(
    num_players=st.sampled_from((2, 3, 4)),
    seeds=st.lists(st.integers(min_value=0, max_value=2**64), min_size=2, max_size=2, unique=True),
)
def test_different_seeds_give_different_draw_piles(num_players, seeds):
    """R1: the shuffle depends on the seed; two different seeds giving the same draw pile and
    the same removed cards would be a 1-in-astronomical coincidence (60!-fold at least)."""
    piles = []
    for seed in seeds:
        zones = biblios.view(biblios.new_game(num_players, seed=seed), "all")["zones"]
        piles.append((zones["drawing"] + zones["draw_pile"], sorted(zones["removed"])))
    assert piles[0] != piles[1]
    assert piles[0][0] != piles[1][0]
