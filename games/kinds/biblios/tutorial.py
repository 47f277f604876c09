"""Biblios' lesson (`GameKind.lesson`, played by games/learn.py) and its scoring demo.

The guided game: two players, the learner first against the Novice, on a fixed deal whose first
cards are chosen to teach (a strong Monks card to keep, a card for the auction pile, a Church
card to raise the Monks die, Gold to pay with); the auction steps wait for the decisions they
explain. The texts follow the rules page's (biblios/rules.html) wording and name its sections.

The scoring demo: the end of a fixed game between two Scholars, played through the engine and
chosen because it shows every rule at once (a tie broken by a letter, equal victory points
separated by the Monks total); the reader moves its dice, and every figure is the engine's own
`result` for those hands and dice.
"""

import dataclasses
import random
from functools import cache
from urllib.parse import urlencode

from django.utils.translation import gettext, gettext_lazy

from games.kinds.biblios import bots, presentation, presenter
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CATEGORIES, CATEGORY, KIND, VALUE
from games.kinds.biblios.names import card_label, category_label, dice_board_label
from games.kinds.registry import Lesson, LessonStep

SEED = "lesson-biblios"
LEARNER, NOVICE = 0, 1

# The deal's first cards, top first: the learner's turn (3 cards), the Novice's (3), the
# learner's (3), the Novice's (3), the learner's (3); the rest of the pile as the seed shuffled it.
OPENING = [
    "monks-H", "pigments-F", "forbidden_tomes-A",
    "gold-2-08", "holy_books-H", "manuscripts-G",
    "church-up1-2", "gold-1-08", "manuscripts-I",
    "monks-D", "gold-3-11", "holy_books-E",
    "gold-3-04", "pigments-I", "manuscripts-E",
]  # fmt: skip


def _deck() -> list[str]:
    """The seed's draw pile (as the engine deals it) with the opening moved to the top."""
    dealt = biblios.new_game(2, seed=SEED, first_player=LEARNER)
    pile = [dealt.drawing, *dealt.draw_pile]
    return OPENING + [card for card in pile if card not in OPENING]


SETUP = {
    "num_players": 2,
    "seed": SEED,
    "edition": "biblios",
    "options": dict(biblios.OPTIONS),
    "first_player": LEARNER,
    "deck": _deck(),
}


def _gold(view: dict) -> int:
    return sum(VALUE[card] for card in view["hand"] or [] if KIND[card] == "gold")


def _step(view: dict) -> str:
    return (view["awaiting"] or {}).get("step", "")


def _bid_affordable(view: dict) -> bool:
    """A category or Church card on sale whose next bid the learner's Gold covers."""
    auction = view["auction"]
    return _step(view) == "bid" and not auction["gold"] and _gold(view) >= auction["high_bid"] + 1


def _bid_too_dear(view: dict) -> bool:
    """A category or Church card whose next bid is more than the learner's Gold."""
    auction = view["auction"]
    return _step(view) == "bid" and not auction["gold"] and _gold(view) < auction["high_bid"] + 1


def words(view: dict) -> dict:
    """The names the steps' texts use, in the reader's language."""
    auction = view["auction"] or {}
    church = view["church"] or {}
    public = view["public_space"]
    return {
        "card": card_label(view["gift"]["drawing"]) if view["gift"]["drawing"] else "",
        "public": card_label(public[0]) if public else "",
        "auction": card_label(auction["card"]) if auction else "",
        "church": card_label(church["card"]) if church else "",
        "gold": _gold(view),
        "next_bid": auction.get("high_bid", 0) + 1,
        "remaining": (view["awaiting"] or {}).get("remaining", ""),
        "monks": category_label("monks"),
        "board": dice_board_label(),
    }


def _place(to: str) -> tuple[dict, ...]:
    return ({"type": "place", "to": to},)


STEPS = (
    LessonStep(
        say=gettext_lazy(
            "You drew %(card)s. Keep it for yourself: press “Keep it for yourself (face down)”."
        ),
        why=gettext_lazy(
            "In the gift phase you draw three cards, one at a time, and place each before the "
            "next: exactly one face down for yourself, one face down on the auction pile, the "
            "others face up in the public space. At the end the highest total in a category "
            "wins its die, so a strong card of a category is worth keeping."
        ),
        expect=_place("self"),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("You drew %(card)s. Put it on the auction pile (face down)."),
        why=gettext_lazy(
            "Once the draw pile is empty, the auction pile is sold card by card and everyone "
            "may bid. You will know this card is in it; nobody else will."
        ),
        expect=_place("auction"),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("You drew %(card)s. Only the public space is left: offer it face up."),
        why=gettext_lazy(
            "Then each other player takes one face-up card: here the Novice takes this one. "
            "Offer the card that helps you least; you take your own face-down card into your "
            "hand."
        ),
        expect=_place("public"),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("The Novice drew and placed its cards. Take %(public)s."),
        why=gettext_lazy(
            "When another player is the active player, you take one of the face-up cards they "
            "offered; the last player takes what is left, so with two players this card is "
            "yours."
        ),
        expect=({"type": "pick"},),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("You drew %(card)s. Keep it for yourself."),
        why=gettext_lazy(
            "A Church card you keep for yourself is used at once and takes your face-down slot: "
            "this turn you add no card to your hand."
        ),
        expect=_place("self"),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("Raise the %(monks)s die by 1."),
        why=gettext_lazy(
            "Church cards move dice of the %(board)s up or down by 1. Each die is worth its "
            "value in victory points to whoever holds the highest total of its category at the "
            "end: you lead in %(monks)s, so a higher %(monks)s die is worth more to you. Dice "
            "stay between 1 and 6."
        ),
        expect=({"type": "use_church", "dice": ["monks"], "delta": 1},),
        anchor="church",
    ),
    LessonStep(
        say=gettext_lazy("You drew %(card)s. Offer it in the public space."),
        why=gettext_lazy(
            "Gold scores nothing at the end; it pays for cards at auction. A Gold 1 is the "
            "smallest help you can give the Novice."
        ),
        expect=_place("public"),
        anchor="cards",
    ),
    LessonStep(
        say=gettext_lazy("You drew %(card)s. Only the auction pile is left: put it there."),
        why=gettext_lazy("Exactly one card of each turn goes face down on the auction pile."),
        expect=_place("auction"),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("Take %(public)s, the card the Novice offered."),
        why=gettext_lazy("Every card you take counts at the end, or pays at auction."),
        expect=({"type": "pick"},),
        anchor="gift",
    ),
    LessonStep(
        say=gettext_lazy("You drew %(card)s. Keep it for yourself."),
        why=gettext_lazy(
            "In the auction phase, category and Church cards are bought with Gold: you pay "
            "Gold cards worth at least your bid. Without Gold you cannot buy anything."
        ),
        expect=_place("self"),
        anchor="paying",
    ),
    LessonStep(
        say=gettext_lazy(
            "The auctions have begun: %(auction)s is for sale. You hold %(gold)s Gold: bid "
            "%(next_bid)s or more."
        ),
        why=gettext_lazy(
            "Bidding goes round: each bid must beat the last one, and whoever passes is out for "
            "this card. For a category or Church card, bids count Gold value. The last bidder "
            "wins; if nobody bids, the card leaves the game."
        ),
        expect=({"type": "bid"},),
        when=_bid_affordable,
        anchor="auction",
    ),
    LessonStep(
        say=gettext_lazy("You won the auction: pay with your Gold cards."),
        why=gettext_lazy(
            "Pay Gold cards worth at least your bid. No change is given, and the Gold you pay "
            "is shown to everyone; the board ticks the payment that wastes least."
        ),
        expect=({"type": "pay"},),
        when=lambda view: _step(view) == "pay",
        anchor="paying",
    ),
    LessonStep(
        say=gettext_lazy(
            "%(auction)s now costs at least %(next_bid)s Gold and you hold %(gold)s: pass."
        ),
        why=gettext_lazy(
            "A pass is final for this card. A bid you cannot pay is a bad bargain: if you win "
            "and cannot pay, the other player takes a random card from your hand, and the card "
            "is auctioned again without you."
        ),
        expect=({"type": "pass"},),
        when=_bid_too_dear,
        anchor="paying",
    ),
    LessonStep(
        say=gettext_lazy(
            "%(auction)s is for sale: for a Gold card, bids count cards from your hand. Bid or "
            "pass."
        ),
        why=gettext_lazy(
            "Whoever wins a Gold card discards exactly as many cards as they bid, of any kind, "
            "face down, one at a time. Nobody else learns which."
        ),
        when=lambda view: _step(view) == "bid" and view["auction"]["gold"],
        anchor="paying",
    ),
)

TIPS = {
    "place": gettext_lazy(
        "Keep what raises a category you can win, or Gold to pay at auction; offer what helps "
        "the Novice least."
    ),
    "pick": gettext_lazy("Take the card that helps you most."),
    "church": gettext_lazy(
        "Raise the dice of categories you lead, lower those the Novice leads, or keep the dice "
        "as they are."
    ),
    "bid": gettext_lazy(
        "You hold %(gold)s Gold. Bid what the card is worth to you, and no more than you can pay."
    ),
    "pay": gettext_lazy("The board ticks the payment that wastes least."),
    "give": gettext_lazy("Discard the cards that count least for you: Gold you do not need, or "
                         "a category you cannot win."),
}  # fmt: skip


def hint(view: dict) -> str:
    """Play on: the rules' help for this decision and a tip."""
    step = _step(view)
    help_text = presentation.step_help(step)
    tip = TIPS.get(step)
    parts = [str(help_text["text"]) if help_text else "", str(tip) % words(view) if tip else ""]
    return " ".join(part for part in parts if part)


def ending(view: dict) -> list[str]:
    """The score explained, category by category, then the victory points and the winner."""
    result = view["result"]
    lines = [score_line(entry, LEARNER) for entry in result["categories"]]
    players = result["players"]
    me, novice = players[LEARNER], players[NOVICE]
    totals = gettext("You scored %(mine)s victory points, the Novice %(theirs)s.") % {
        "mine": me["vp"],
        "theirs": novice["vp"],
    }
    if result["shared_win"]:
        outcome = gettext("You share the win with the Novice.")
    elif LEARNER in result["winners"]:
        outcome = gettext("You win!")
    else:
        outcome = gettext("The Novice wins this time.")
    if result["win_decided_by"] not in ("vp", "shared"):
        outcome += " " + gettext("Equal victory points: decided %(on_step)s.") % {
            "on_step": presentation.ahead_on_words(result["win_decided_by"], "biblios")
        }
    return [*lines, f"{totals} {outcome}"]


def score_line(entry: dict, reader: int) -> str:
    """Who wins one category and why, as the engine's result says it."""
    name = category_label(entry["category"])
    values = {"category": name, "die": entry["die"]}
    totals = entry["totals"]
    winner = entry["winner"]
    if winner is None:
        return gettext("%(category)s: nobody holds any, so nobody scores its die.") % values
    values.update(mine=totals[reader], theirs=totals[1 - reader])
    if entry["tie_letter"]:
        values["letter"] = entry["tie_letter"]
        if winner == reader:
            text = gettext(
                "%(category)s: a tie at %(mine)s, broken by your letter %(letter)s: you score "
                "the die, %(die)s."
            )
        else:
            text = gettext(
                "%(category)s: a tie at %(mine)s, broken by the Novice's letter %(letter)s: it "
                "scores the die, %(die)s."
            )
    elif winner == reader:
        text = gettext(
            "%(category)s: your %(mine)s beats the Novice's %(theirs)s: you score the die, %(die)s."
        )
    else:
        text = gettext(
            "%(category)s: the Novice's %(theirs)s beats your %(mine)s: it scores the die, %(die)s."
        )
    return text % values


# ----------------------------------------------------------------------------- scoring demo

DEMO_SEED = "lesson-biblios-scoring-12"


@cache
def demo_state() -> biblios.State:
    """The end of a fixed game between two Scholars, played through the engine."""
    state = biblios.new_game(2, seed=DEMO_SEED, first_player=LEARNER)
    memories = [bots.new_memory(seat, 2) for seat in (0, 1)]
    while biblios.to_act(state):
        seat = biblios.to_act(state)[0]
        view = biblios.view(state, seat)
        rng = random.Random(f"{DEMO_SEED}/{state.version}")
        state = biblios.apply_action(state, seat, bots.choose("scholar", view, memories[seat], rng))
    return state


def _dice_from(raw: str | None, start: list[int]) -> list[int] | None:
    """Five dice written "3-4-2-5-6", each 1 to 6; None when `raw` is not that."""
    if raw is None:
        return list(start)
    parts = raw.split("-")
    if len(parts) != len(CATEGORIES) or not all(p in {"1", "2", "3", "4", "5", "6"} for p in parts):
        return None
    return [int(p) for p in parts]


def scoring_context(query) -> dict:
    """The demo's context: the final hands, the dice as the reader set them (`?dice=`), the
    category they asked about (`?category=`), and the engine's result for those dice."""
    final = demo_state()
    message = ""
    dice = _dice_from(query.get("dice"), final.dice)
    if dice is None:
        dice, message = list(final.dice), gettext("Dice go from 1 to 6; here are the game's own.")
    chosen = query.get("category")
    if chosen is not None and chosen not in CATEGORIES:
        chosen, message = None, gettext("There is no such category; choose one below.")
    state = dataclasses.replace(final, dice=dice)
    view = biblios.view(state, LEARNER)
    names = [gettext("Player A"), gettext("Player B")]
    board = presenter.view_context(None, view, names)
    result = view["result"]
    entries = {entry["category"]: entry for entry in result["categories"]}

    def link(new_dice=dice, category=chosen) -> str:
        params = {"dice": "-".join(map(str, new_dice))}
        if category:
            params["category"] = category
        return "?" + urlencode(params)

    controls = []
    for index, category in enumerate(CATEGORIES):
        value = dice[index]
        lower = [*dice[:index], value - 1, *dice[index + 1 :]] if value > 1 else None
        higher = [*dice[:index], value + 1, *dice[index + 1 :]] if value < 6 else None
        entry = entries[category]
        controls.append(
            {
                "category": category,
                "name": category_label(category),
                "value": value,
                "lower": link(lower) if lower else "",
                "higher": link(higher) if higher else "",
                "explain": link(category=category),
                "chosen": category == chosen,
                "winner": names[entry["winner"]] if entry["winner"] is not None else "",
            }
        )
    explained = None
    if chosen:
        entry = entries[chosen]
        explained = {
            "name": category_label(chosen),
            "line": _demo_line(entry, names),
            "rows": [
                {
                    "name": names[seat],
                    "cards": [card_label(c) for c in view["hands"][seat] if CATEGORY[c] == chosen],
                    "total": entry["totals"][seat],
                    "letter": entry["letters"][seat] or "—",
                    "wins": entry["winner"] == seat,
                }
                for seat in range(2)
            ],
        }
    players = result["players"]
    return {
        **board,
        "message": message,
        "board": dice_board_label(),
        "controls": controls,
        "explained": explained,
        "reset": link(final.dice, None),
        "game_dice": final.dice == dice,
        "vp": [{"name": names[p["seat"]], "vp": p["vp"], "gold": p["gold"]} for p in players],
        "winner_line": _winner_line(result, names),
    }


def _demo_line(entry: dict, names: list[str]) -> str:
    """One category's outcome in the demo, naming both players."""
    values = {"category": category_label(entry["category"]), "die": entry["die"]}
    if entry["winner"] is None:
        return gettext("%(category)s: nobody holds any, so nobody scores its die.") % values
    values.update(winner=names[entry["winner"]], total=entry["totals"][entry["winner"]])
    if entry["tie_letter"]:
        values["letter"] = entry["tie_letter"]
        return (
            gettext(
                "%(category)s: both hold %(total)s; %(winner)s holds the earliest letter, "
                "%(letter)s, and scores the die: %(die)s victory points."
            )
            % values
        )
    return (
        gettext(
            "%(category)s: %(winner)s holds the highest total, %(total)s, and scores the die: "
            "%(die)s victory points."
        )
        % values
    )


def _winner_line(result: dict, names: list[str]) -> str:
    if result["shared_win"]:
        return gettext("Equal in everything: they share the win.")
    winner = names[result["winners"][0]]
    step = result["win_decided_by"]
    if step == "vp":
        return gettext("%(name)s wins on victory points.") % {"name": winner}
    return gettext("Equal victory points: %(name)s wins %(on_step)s.") % {
        "name": winner,
        "on_step": presentation.ahead_on_words(step, "biblios"),
    }


LESSON = Lesson(
    setup=SETUP,
    players=2,
    seat=LEARNER,
    bot="novice",
    intro=gettext_lazy(
        "You play against the Novice bot, on a deal prepared for this lesson. Each step says "
        "what to do and why; the board and the buttons are those of a real game."
    ),
    steps=STEPS,
    hint=hint,
    ending=ending,
    scoring_template="biblios/learn_scoring.html",
    scoring_context=scoring_context,
    words=words,
)
