"""Ex Libris' lesson (`GameKind.lesson`, played by games/learn.py) and its scoring demo.

The guided game: two players, the learner first against the Random bot (Ex Libris' weakest
level), on a deal whose seed was chosen to teach: the learner drafts the Bookworm (a power
on the library, X59), the first round's tile is the Bon Mot Bookshop (take a card and shelve it,
X44), and the Random bot's Automaton (X55) never makes the learner answer a power. The steps
wait for the decisions they explain (each `when` names the engine's pending decision); their
texts reuse the rules page's (exlibris/rules.html) sentences and name its sections.

The scoring demo: the end of a fixed game between two Greedy bots, played through the engine;
the reader turns cards of Player A's bookshelf face down (the pre-scoring flip, X68) and
chooses Prominent and Banned (X10), and every figure is the engine's own `result`.
"""

import random
from functools import cache
from urllib.parse import urlencode

from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from games.kinds.exlibris import bots, effects, engine, names, presenter, scoresheet
from games.kinds.exlibris.card_faces import card_name
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring
from games.kinds.exlibris.engine.cards import CATEGORIES
from games.kinds.exlibris.engine.setup import END_THRESHOLD
from games.kinds.registry import Lesson, LessonStep

SEED = "lesson-exlibris-101"
LEARNER, BOT = 0, 1
FIRST_TILE = "bookshop"  # round 1's tile beside the Hut with this seed (X19)
LIBRARY = "bookworm"  # the library the learner drafts (X8, X59)

SETUP = engine.setup_of(engine.new_game(2, seed=SEED, first_player=LEARNER))


def _kind(view: dict) -> str:
    return (view["pending"] or {}).get("kind", "")


def _is(kind: str, *, round_from: int = 0):
    """The learner is asked a decision of this kind (from round `round_from` on)."""
    return lambda view: _kind(view) == kind and view["round"] >= round_from


def _me(view: dict) -> dict:
    return view["seats"][view["seat"]]


def ordered_cells(view: dict) -> list[tuple[int, int]]:
    """The empty cells where the card being shelved turns no more cards face down at the
    alphabetical check (A1, X69) than the bookshelf already does: the engine's own check."""
    card = (view["pending"] or {}).get("card")
    cells = [tuple(a["cell"]) for a in view["legal_actions"] if a["type"] == "cell"]
    if not card:
        return []
    shelf = _me(view)["bookshelf"]
    before = len(scoring.alphabetical(shelf)[1])
    return [
        cell
        for cell in cells
        if len(scoring.alphabetical(bs.shelve(shelf, card, cell))[1]) == before
    ]


def _cell_names(view: dict) -> list[str]:
    """`ordered_cells` as the board numbers them ("row 1, column 2", presenter.shelf_grid)."""
    good = ordered_cells(view)
    if not good:
        return []
    cells = [tuple(a["cell"]) for a in view["legal_actions"] if a["type"] == "cell"]
    keys = [bs.parse_key(k) for k in _me(view)["bookshelf"]] + cells
    top, left = min(r for r, _ in keys), min(c for _, c in keys)
    return [
        gettext("row %(row)s, column %(col)s") % {"row": r - top + 1, "col": c - left + 1}
        for r, c in good
    ]


def words(view: dict) -> dict:
    """The names the steps' texts use, in the reader's language."""
    me = _me(view)
    card = (view["pending"] or {}).get("card")
    cells = _cell_names(view)
    shelved = [stack["top"] for _cell, stack in bs.stacks_in_reading_order(me["bookshelf"])]
    return {
        "library": names.library(LIBRARY),
        "assistant": names.assistant(LIBRARY),
        "power": effects.assistant_power(LIBRARY),
        "tile": names.location(FIRST_TILE),
        "effect": effects.location_effect(FIRST_TILE),
        "hut": names.location(engine.HUT),
        "hut_effect": effects.location_effect(engine.HUT),
        "card": card_name(card) if card else "",
        "shelved": ", ".join(card_name(c) for c in shelved if c != "hidden") or "—",
        "cells": "; ".join(cells) if cells else gettext("none: choose the cell that hurts least"),
        "prominent": names.category(view["prominent"]),
        "banned": names.category(view["banned"]),
        "focus": names.category(me["focus"]) if me["focus"] else "",
        "counts": " / ".join(str(n) for n in END_THRESHOLD.values()),  # as on the rules page
        "trigger": _trigger(view),
    }


def _trigger(view: dict) -> str:
    """Why the game is ending (X67, or the round cap X89), from the view's end trigger."""
    trigger = view["end_trigger"]
    if not trigger:
        return ""
    if not trigger["by"]:
        return gettext("nobody shelved enough cards by round 30, so round 31 ends the game.")
    return gettext("a bookshelf reached %(count)s cards at the last Restoration.") % {
        "count": view["end_threshold"]
    }


# The rules page's own sentences (exlibris/rules.html), reused as they are translated there.
RULE_DRAFT = gettext_lazy(
    "Two libraries per player are laid out face up. Starting with the last player in turn order "
    "and going counter-clockwise, each player takes one and removes another from the game. A "
    "library has three home spaces and its own special assistant."
)
RULE_ASSISTANTS = gettext_lazy(
    "Each player takes their library's special assistant and 2 standard assistants of their colour."
)
# The rules page's placement sentence without its list's lead-in ("An assistant goes:").
RULE_PLACEMENT = gettext_lazy(
    "Starting with the first player and going clockwise, each player places one assistant at a "
    "time until everyone has placed them all."
)
RULE_INSTANT = gettext_lazy(
    "A location with an instant effect acts at once, for the player whose assistant arrives. A "
    "delayed effect waits for Resolution."
)
RULE_TAKE = gettext_lazy(
    "A card you take, draw, win, steal or receive goes to your hand. You draw from the top of "
    "the deck; you choose the card you take from a tile."
)
RULE_SHELVE = gettext_lazy(
    "To shelve a card is to put it face up into your bookshelf, a grid of cells in front of "
    "you. The first card goes anywhere; each later one goes into an empty cell next to a card "
    "already there: above, below, left or right, never just diagonally."
)
RULE_SHAPE = gettext_lazy(
    "Your bookshelf must stay in one piece and may never be more than 3 rows tall. It may grow "
    "sideways without limit."
)
RULE_HOME = gettext_lazy(
    "An assistant on a home space gives you one home action: draw 1 card, or shelve 1 card from "
    "your hand (or do nothing). Effects that grant home actions offer the same choice each "
    "time. “Both home actions” means one draw and one shelving, in the order you like; the card "
    "drawn may be the one shelved."
)
RULE_PLAN = gettext_lazy(
    "Plan ahead: at the inspection, cards out of alphabetical order are turned face down, and "
    "stability is measured from your bottom row."
)
RULE_A1 = gettext_lazy(
    "Read your bookshelf row by row from the top, each row from left to right, skipping "
    "face-down cards. A face-up card stays up only if it comes after the last card left face "
    "up, by letter and then by number; otherwise it is turned face down."
)
RULE_RESOLUTION = gettext_lazy(
    "The face-up locations are resolved one by one in ascending tile number. For each: its "
    "delayed effect, if it has one; then the cards left on it are discarded; then its "
    "assistants go back to their owners."
)
RULE_RESTORATION = gettext_lazy(
    "Of the face-up locations that are not yet permanent, the lowest-numbered becomes "
    "permanent: it stays face up for the rest of the game (after the first round, the "
    "%(hut)s). So each round has one more location than the last. The other locations go to "
    "the location discard, which is shuffled into a new pile when the pile runs out. Assistants "
    "on home spaces come back. Whoever took the first-player token starts the next round."
)
RULE_CATEGORIES = gettext_lazy(
    "Of the six category cards, one is turned face up as Prominent and one as Banned. Each "
    "player is dealt one face down: their focus, which only they may look at. The others leave "
    "the game unseen, so no focus is Prominent or Banned and no two players share one."
)
RULE_PROMINENT = gettext_lazy(
    "Players are ranked by their Prominent books: 15, 9 and 4 points for the first three "
    "places. Tied players share the points of the places they take, rounded up: two tied first "
    "get 12 each. No Prominent book, no points."
)
RULE_DIVERSITY = gettext_lazy(
    "3 points times your smallest count among the five categories that are not Banned; 0 if "
    "you lack one of them."
)
RULE_END = gettext_lazy(
    "At Restoration, if any player has at least %(counts)s cards in their bookshelf (with 2, 3 "
    "and 4 players; cards under others count), the next round is the last. It is played "
    "through Resolution, then comes the inspection. If nobody has triggered the end by round "
    "30, round 31 is the last all the same."
)
RULE_FLIP = gettext_lazy(
    "First, each player may turn any of their bookshelf's cards face down, in secret; the "
    "choices are revealed together. A card turned down can save the alphabetical order of the "
    "cards after it. Then the inspection form is filled in, line by line:"
)


def _both(first, second):
    return format_lazy("{} {}", first, second)


STEPS = (
    LessonStep(  # X8, X9: the draft, the last player first
        say=gettext_lazy(
            "The Random bot took its library first. Take the %(library)s: its special "
            "assistant is the %(assistant)s."
        ),
        why=RULE_DRAFT,
        expect=({"type": "take", "library": LIBRARY},),
        when=_is("draft_take"),
        anchor="setup",
    ),
    LessonStep(  # X8
        say=gettext_lazy("Only one library is left in the pool: remove it from the game."),
        why=RULE_ASSISTANTS,
        when=_is("draft_remove"),
        anchor="setup",
    ),
    LessonStep(  # X20, X21, X44: the first placement, an instant location
        say=gettext_lazy(
            "You are the first player. Place a standard assistant on the %(tile)s: press its "
            "button on the location. Its effect: %(effect)s"
        ),
        why=_both(RULE_PLACEMENT, RULE_INSTANT),
        expect=({"type": "place", "assistant": "standard", "target": FIRST_TILE},),
        when=_is("place"),
        anchor="placement",
    ),
    LessonStep(  # X29, X44
        say=gettext_lazy("Take one of the tile's cards: the one you like best."),
        why=RULE_TAKE,
        expect=({"type": "take"},),
        when=_is("take_tile_card"),
        anchor="effects",
    ),
    LessonStep(  # X14
        say=gettext_lazy("“You may shelve it”: shelve the card you took."),
        why=RULE_SHELVE,
        expect=({"type": "shelve"},),
        when=_is("shelve_card"),
        anchor="bookshelf",
    ),
    LessonStep(  # X12, X13, X14
        say=gettext_lazy(
            "Your bookshelf is empty: the first card goes in its first cell. Press the cell."
        ),
        why=RULE_SHAPE,
        expect=({"type": "cell"},),
        when=_is("shelve_cell"),
        anchor="bookshelf",
    ),
    LessonStep(  # X21, X22, X59: the special assistant's power on the library
        say=gettext_lazy(
            "Now place your %(assistant)s on your library, in the move region. Its power: %(power)s"
        ),
        why=RULE_HOME,
        expect=({"type": "place", "assistant": "special", "target": "library"},),
        when=_is("place"),
        anchor="home",
    ),
    LessonStep(  # X22, X32: both home actions, part by part
        say=gettext_lazy("Both home actions, in the order you like: first draw a card."),
        why=RULE_HOME,
        expect=({"type": "draw"},),
        when=_is("home"),
        anchor="home",
    ),
    LessonStep(  # X22
        say=gettext_lazy("Now the other home action: shelve a card from your hand."),
        why=RULE_PLAN,
        expect=({"type": "shelve"},),
        when=_is("home"),
        anchor="bookshelf",
    ),
    LessonStep(  # X17, X69
        say=gettext_lazy(
            "Choose the card. Your bookshelf reads %(shelved)s: a card later in the alphabet "
            "can go to the right of the last one, an earlier one to the left of the first."
        ),
        why=RULE_A1,
        expect=({"type": "shelve"},),
        when=_is("shelve_card"),
        anchor="scoring",
    ),
    LessonStep(  # X14, X17, X69: a cell that keeps the order, checked by the engine's A1
        say=gettext_lazy(
            "Where does %(card)s keep your bookshelf in alphabetical order? Here: %(cells)s."
        ),
        why=RULE_A1,
        expect=({"type": "cell"},),
        when=_is("shelve_cell"),
        anchor="scoring",
    ),
    LessonStep(  # X59: the Bookworm's second pair of home actions
        say=gettext_lazy(
            "The %(assistant)s's power goes on: discard a hand card to take both home actions "
            "once more, or stop."
        ),
        why=RULE_HOME,
        when=_is("bookworm"),
        anchor="assistants",
    ),
    LessonStep(  # X20, X35: the last assistant of the round
        say=gettext_lazy("Place your last assistant where you like. The %(hut)s: %(hut_effect)s"),
        why=RULE_RESOLUTION,
        expect=({"type": "place"},),
        when=_is("place"),
        anchor="resolution",
    ),
    LessonStep(  # X27, X28: Restoration made a location permanent
        say=gettext_lazy(
            "A new round: the locations were resolved and one of them stays for good. Place "
            "your first assistant."
        ),
        why=RULE_RESTORATION,
        expect=({"type": "place"},),
        when=_is("place", round_from=2),
        anchor="restoration",
    ),
    LessonStep(  # X10, X72, X73
        say=gettext_lazy(
            "Choose a card to shelve. Prominent books (%(prominent)s) win points for the most; "
            "each Banned book (%(banned)s) costs a point."
        ),
        why=_both(RULE_CATEGORIES, RULE_PROMINENT),
        expect=({"type": "shelve"}, {"type": "done"}),
        when=_is("shelve_card", round_from=2),
        anchor="scoring",
    ),
    LessonStep(  # X74, X75
        say=gettext_lazy(
            "Another shelving. Your secret focus is %(focus)s: 2 points for each of its books. "
            "And diversity pays for your scarcest category."
        ),
        why=RULE_DIVERSITY,
        expect=({"type": "shelve"}, {"type": "done"}),
        when=_is("shelve_card", round_from=3),
        anchor="scoring",
    ),
    LessonStep(  # X67: the end is triggered
        say=gettext_lazy("This is the last round: %(trigger)s Make your last placements count."),
        why=RULE_END,
        expect=({"type": "place"},),
        when=lambda view: _kind(view) == "place" and view["final_round"],
        anchor="end",
    ),
    LessonStep(  # X68: the pre-scoring flip
        say=gettext_lazy(
            "Before the inspection you may turn cards of your bookshelf face down. Press Done "
            "when your bookshelf is as you want it."
        ),
        why=RULE_FLIP,
        when=_is("flip"),
        anchor="scoring",
    ),
)


def hint(view: dict) -> str:
    """Play on: what the board asks, and a tip for the decisions the lesson met."""
    kind = _kind(view)
    tip = {
        "place": gettext_lazy(
            "Locations give cards; your library gives home actions (draw or shelve)."
        ),
        "shelve_cell": gettext_lazy("Cells keeping alphabetical order: %(cells)s."),
        "flip": gettext_lazy("Press Done unless a card breaks your alphabetical order."),
    }.get(kind)
    seats = [pgettext("lesson seat", "you"), pgettext("bot level", "Random")]
    prompt = presenter.view_context(None, view, seats)["actions"]["prompt"]
    return " ".join(part for part in (prompt, str(tip) % words(view) if tip else "") if part)


LINES = (
    ("b1", gettext_lazy("B1 stability: %(mine)s for you, %(theirs)s for the bot.")),
    ("b2", gettext_lazy("B2 Prominent books: %(mine)s for you, %(theirs)s for the bot.")),
    ("b3", gettext_lazy("B3 Banned books: %(mine)s for you, %(theirs)s for the bot.")),
    ("b4", gettext_lazy("B4 diversity: %(mine)s for you, %(theirs)s for the bot.")),
    ("b5", gettext_lazy("B5 focus: %(mine)s for you, %(theirs)s for the bot.")),
)


def ending(view: dict) -> list[str]:
    """The inspection explained line by line from the engine's result, then the winner."""
    result = scoresheet.inspection(view)
    sheets = result["inspection"]["players"]
    me, bot = sheets[LEARNER], sheets[BOT]
    turned = me["a1_flipped_cards"]
    lines = [
        gettext("A1 alphabetical order turned down: %(cards)s.")
        % {"cards": ", ".join(card_name(c) for c in turned) if turned else "—"}
    ]
    lines += [str(text) % {"mine": me[line], "theirs": bot[line]} for line, text in LINES]
    lines.append(
        ngettext(
            "You scored %(mine)s point, the bot %(theirs)s.",
            "You scored %(mine)s points, the bot %(theirs)s.",
            me["total"],
        )
        % {"mine": me["total"], "theirs": bot["total"]}
    )
    if result["inspection"]["shared_win"]:
        lines.append(gettext("You share the win."))
    elif LEARNER in result["winners"]:
        lines.append(gettext("You win!"))
    else:
        lines.append(gettext("The bot wins this time."))
    step = sheets[result["winners"][0]]["decided_by"]
    if not result["inspection"]["shared_win"] and step not in (None, "total"):  # X76
        lines.append(
            gettext("Equal totals: decided by %(step)s.") % {"step": scoresheet.DECIDED_BY[step]}
        )
    return lines


# ----------------------------------------------------------------------------- scoring demo

DEMO_SEED = "lesson-exlibris-scoring-3"
DEMO_SEAT = 0


@cache
def demo_state() -> dict:
    """The end of a fixed game between two Greedy bots, played through the engine."""
    state = engine.new_game(2, seed=DEMO_SEED, first_player=0)
    memories = [bots.new_memory(seat, 2) for seat in (0, 1)]
    while engine.to_act(state):
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        rng = random.Random(f"{DEMO_SEED}/{state['version']}")
        action = bots.choose("greedy", view, memories[seat], rng)
        state = engine.apply_action(state, seat, action)
    return state


def _cells_from(raw: str | None, allowed: set[str]) -> list[str] | None:
    """Cells written "0.1_1.-2" (row.col, engine coordinates) among `allowed`, "" for none;
    None for anything else."""
    if not raw:
        return []
    found = []
    for part in raw.split("_"):
        cell = part.replace(".", ",")
        if cell not in allowed or cell in found:
            return None
        found.append(cell)
    return found


def scoring_context(query) -> dict:
    """The demo: the final bookshelves, the cards Player A turned down (`?down=`), Prominent
    and Banned as the reader chose them (`?prominent=`, `?banned=`), and the engine's result."""
    final = demo_state()
    message = ""
    foci = {seat["focus"] for seat in final["seats"]}
    choosable = [c for c in CATEGORIES if c not in foci]  # X10: no focus is Prominent or Banned
    shelf = final["seats"][DEMO_SEAT]["bookshelf"]
    face_up = {bs.cell_key(cell) for cell in bs.face_up_cells(shelf)}
    own = [bs.cell_key(cell) for cell in final["pre_flips"][DEMO_SEAT]]  # the game's own (X68)
    raw = query.get("down")
    down = own if raw is None else _cells_from(raw, face_up)
    if down is None:
        down, message = own, gettext("That is not a face-up card of the bookshelf; start again.")
    prominent = query.get("prominent", final["prominent"])
    banned = query.get("banned", final["banned"])
    if prominent not in choosable or banned not in choosable or prominent == banned:
        prominent, banned = final["prominent"], final["banned"]
        message = gettext(
            "Prominent and Banned are two different categories, neither a player's focus."
        )
    pre_flips = [list(f) for f in final["pre_flips"]]
    pre_flips[DEMO_SEAT] = [list(bs.parse_key(k)) for k in down]
    state = engine.State({**final, "pre_flips": pre_flips, "prominent": prominent,
                          "banned": banned})  # fmt: skip
    result = engine.result(state)
    view = engine.view(state, None)  # a spectator's: every card is public once over (X77)
    player_names = [gettext("Player A"), gettext("Player B")]
    board = presenter.view_context(None, view, player_names)

    def link(cells=down, prom=prominent, ban=banned) -> str:
        params = {
            "prominent": prom,
            "banned": ban,
            "down": "_".join(k.replace(",", ".") for k in cells),
        }
        return "?" + urlencode(params)

    sheet = result["inspection"]["players"][DEMO_SEAT]
    a1 = {bs.cell_key(cell) for cell in sheet["a1_flips"]}
    cards = []
    for cell, stack in bs.stacks_in_reading_order(shelf):
        cell_key = bs.cell_key(cell)
        if not stack["up"]:
            continue
        turned = cell_key in down
        others = [k for k in down if k != cell_key] if turned else [*down, cell_key]
        cards.append(
            {
                "key": cell_key,
                "card": stack["top"],
                "down": turned,
                "a1": cell_key in a1,
                "toggle": link(cells=others),
            }
        )
    categories = [
        {
            "id": c,
            "name": names.category(c),
            "prominent": c == prominent,
            "banned": c == banned,
            "make_prominent": link(prom=c) if c != banned else "",
            "make_banned": link(ban=c) if c != prominent else "",
        }
        for c in choosable
    ]
    totals = [
        {"name": player_names[s["seat"]], "total": s["total"], "place": s["place"]}
        for s in result["inspection"]["players"]
    ]
    return {
        **board,
        "message": message,
        "cards": cards,
        "categories": categories,
        "totals": totals,
        "changed": (down, prominent, banned) != (own, final["prominent"], final["banned"]),
        "demo_name": player_names[DEMO_SEAT],
    }


LESSON = Lesson(
    setup=SETUP,
    players=2,
    seat=LEARNER,
    bot="random",
    intro=gettext_lazy(
        "You play against the Random bot, Ex Libris' easiest, on a deal prepared for this "
        "lesson. Each step says what to do and why; the board and the buttons are those of a "
        "real game."
    ),
    steps=STEPS,
    hint=hint,
    ending=ending,
    scoring_template="exlibris/learn_scoring.html",
    scoring_context=scoring_context,
    words=words,
)
