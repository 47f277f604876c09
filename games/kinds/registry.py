"""The game registry: what the platform knows of each game kind, and the only way it reaches one.

Why: the platform (models, services, views, consumers, API, turns, history, replay, chat,
moderation, admin, ratings) hosts any number of games and never imports one. Each game is a
package under `games/kinds/` (Biblios has its own there) that is also a Django app, so its
templates and template tags load like any app's, and whose `kind` module defines one `GameKind`
as `KIND`. The kinds a
site runs are `settings.GAME_KINDS` (package paths, also listed in INSTALLED_APPS): adding a game
is adding a folder and one line there. In the spirit of OpenSpiel's `register_game` and
boardgame.io's Game object; `tests/kinds/` runs every registered kind through the conformance suite.
"""

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django.conf import settings
from django.utils.translation import pgettext_lazy

LIVE, ALPHA = "live", "alpha"

# How a bot level plays, worded once for every game, so that levels alike read alike.
PLAYS_AT_RANDOM = pgettext_lazy("bot level", "plays at random")
BEST_IN_SIGHT = pgettext_lazy("bot level", "takes the best move in sight")
THINKS_AHEAD = pgettext_lazy("bot level", "thinks ahead")


class UnknownKind(LookupError):
    """A kind slug no installed game registers."""


@dataclass(frozen=True)
class Variant:
    """One way to play a kind (Biblios: its editions): the slug the engine takes, the printed
    name players see."""

    slug: str
    name: str


@dataclass(frozen=True)
class BotLevel:
    """A bot a table may seat: its name, and a line on how it plays that the create form shows
    beside the seats, so a player can choose between levels before meeting them."""

    slug: str
    label: Any  # a lazy translation
    description: Any = ""  # a lazy translation: "takes the best move in sight"
    # Its fixed rating as a yardstick at rated tables (ratings/elo.py); None: a newcomer's.
    rating: float | None = None


@dataclass(frozen=True)
class DailyTable:
    """How this game's daily deal is played (`games.daily`), its rule and its reading together.

    - `players`: the table's size, the player and the bots; `bot_level`: the level every bot
      seat plays at, fixed so every player meets the same opposition.
    - `points(result, seat)`: the seat's score in the engine's `result`, which the day's
      standings rank by; `points_name`: what it is called on the page ("victory points").
    """

    players: int
    bot_level: str
    points: Callable[[dict, int], float]
    points_name: Any  # a lazy translation


@dataclass(frozen=True)
class Reviewer:
    """How a review of a finished game (`games.analysis`) grades this game's decisions, its
    rule and its means together.

    - `measure`: what the expected results are, as the review page names them ("expected
      place"); `lower_is_better` says which way is better.
    - `thresholds`: the loss (in the measure's units) from which a move is an inaccuracy, a
      mistake, a blunder; below the first it is good (or the best found).
    - `moves(view, memory, rng)`: the moves worth comparing at the decision of `view`'s seat,
      the strongest bot's first idea first; [] for a decision the review does not grade.
    - `results(view, memory, actions, rng, rounds)`: per action, the seat's result in each of
      `rounds` worlds sampled from the view and memory alone (the same worlds for every action),
      so that a grade reads what the mover knew, never the cards they could not see.
    - `final(result, seat)`: what the measure came to for `seat` in the engine's `result`, from
      which a review tells luck apart from skill.
    - `world(view, memory, rng)`: one engine state the view and memory allow, the cards the seat
      could not see dealt anew as `results` deals them; a "what if" branch plays on in it.
    - `worlds`: the worlds a decision is first graded over (up to `more_worlds` times as many
      near a grade's boundary), chosen from how often two reviews of a game grade its
      decisions alike and what a world costs this game (docs/review.md): one number for every
      table, or one per player count (`worlds_for`); `ANALYSIS_ROUNDS`, where set, overrides it.
    """

    measure: Any  # a lazy translation
    lower_is_better: bool
    thresholds: tuple[float, float, float]
    moves: Callable[..., list[dict]]
    results: Callable[..., list[list[float]]]
    final: Callable[[dict, int], float]
    world: Callable[..., Any]
    worlds: int | Mapping[int, int]
    more_worlds: int = 4  # times `worlds`, at most, for a decision whose grade is in doubt

    def worlds_for(self, players: int) -> int:
        """The worlds a decision at a table of `players` is first graded over."""
        return self.worlds[players] if isinstance(self.worlds, Mapping) else self.worlds


class OrderRefused(ValueError):
    """A standing order that cannot be given now; the message says why (for the player)."""


@dataclass(frozen=True)
class OrderParam:
    """A whole-number parameter of an order kind ("up to N"), its label and lowest value."""

    name: str
    label: Any  # a lazy translation
    minimum: int = 1


@dataclass(frozen=True)
class Play:
    """An order fires: `action` is played for its seat; `last`: the order is then done."""

    action: dict
    last: bool = False


@dataclass(frozen=True)
class Stop:
    """An order ends by itself: `reason` is a key of its kind's `reasons`; `tell`: the player
    is told (it switched off on something they did not foresee), not only shown it."""

    reason: str
    tell: bool = True


@dataclass(frozen=True)
class OrderKind:
    """One kind of standing order a player may give in advance at a turn-based table, its
    rule and its words together (`games.play.orders` stores and runs them for every game).

    - `label`: its name in the order form; `params`: its whole-number parameters.
    - `words(params)`: the order as the player reads it, saying when it switches itself off.
    - `start(view, params)`: what it remembers of the moment it is given (the card up for
      auction…), from the seat's view; `OrderRefused` when it cannot be given now.
    - `decide(view, params, anchor)`: after every move, from the seat's own view only (never
      a hidden card): None to wait, `Play` to fire (only ever a legal action of the view), or
      `Stop` when what it was given for is over or something unforeseen happened.
    - `reasons`: the words of each `Stop` reason ("someone bid more than 3").
    """

    slug: str
    label: Any
    params: tuple[OrderParam, ...]
    words: Callable[[dict], str]
    start: Callable[[dict, dict], dict]
    decide: Callable[[dict, dict, dict], "Play | Stop | None"]
    reasons: Mapping[str, Any]


@dataclass(frozen=True)
class Region:
    """One region of a kind's live board: the partial of its `board_template` that draws it (a
    top-level element with an id, `hx-swap-oob` when `oob`).

    `public`: drawn only from what every reader may see (no seat's own cards, forms or "you"),
    so a worker renders it once per game version, from the spectator's view, and hands the same
    HTML to every socket of the game (`games.play.rendering.live_board`).
    tests/kinds/test_public_regions.py renders each public region from every seat's board and
    the spectator's along random games: it must not differ.

    `reads`: the context paths ("hand", "view.my_auction_cards") the partial is drawn from, for
    a reader with no move to make (a move form carries the board's version), if it declares
    them: a socket's push then renders and sends it only when one of them changed since that
    socket's last push (`games.play.live_regions.region_inputs`). tests/kinds/test_region_reads.py
    renders each such region from its declared paths alone along random games: it must not
    differ from the region drawn from the whole board.
    """

    partial: str
    public: bool = False
    reads: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameKind:
    """Everything game-specific the platform asks for, behind one object per game.

    - `engine`: the pure engine module (`games/kinds/protocol.py`'s contract).
    - `options_form(variant, data=None, *, players=None, prefix=None)`: a Django form of the
      table options beyond the platform's own (seats, privacy, timer, bots); its `cleaned_data`
      are the engine's `options` for a table of `players` seats. The web form and the API both
      bind it, so they accept and refuse the same options. An option is a JSON scalar of the type
      its field reads (a switch true or false, a level a whole number…): the API refuses any
      other. `players` is None only while the lobby draws the form for any table size; an option
      for some sizes only (Ex Libris' solo difficulty) is a field the form drops from its cleaned
      data at the others (the lobby ignores it there, the API refuses it), whose widget lists its
      sizes in a `data-players` attribute ("1"; the lobby's CSS hides it at the others). An
      option of some variants only (Biblios' Medieval bluff) is a field with a `variants`
      attribute naming them (`option_applies`): a table of another variant never lists it. Whatever
      the form accepts, `services.create_table` also asks the engine to deal (`new_game`), so a
      table the engine refuses is refused when it is opened.
    - `bots`: a module with `new_memory(seat, players)`, `observe(memory, view)` and
      `choose(level, view, memory, rng, budget_s=None, rounds=None)`: a searching level thinks
      for `budget_s` CPU seconds, or exactly `rounds` rounds when given (the same choice every
      time, which tests and analyses need); the others ignore both. `stand_in` is the level that
      plays a turn whose time ran out and a seat its player left (it must always find a legal
      move). `default_bot` is the level a table offers first: the strongest that plays every
      variant and solo, so that a new player meets a real opponent.
    - `parse_action(data)`: the engine action a board form posted (a QueryDict), or
      `ActionInputError` with a message for the player.
    - `presenter`: a module with `view_context(game, view, names, *, connected=None) -> dict`,
      the template context of any view's board regions (a seat's, a spectator's, a replayed
      step's, or "all" in the inspector). Its "players" list carries "seat" and "name" (the
      platform adds "bot" and "taken_over"); its "banner" is replaced by the platform's notice
      when a moderator ended the game (`games.rendering`, which also adds "log", "turn",
      "rematch", "message" and "board_template").
    - `board_template`: the template holding the board's named partials: `board` (the game
      page's `#board`), the live regions (below), `banner`, `players`, `log_lines`
      (the whole log's page), `event` (one log line, given `event`) and `step_table` (a past
      step's main column: the replay viewer's and the admin inspector's). What every game's
      board shows (message, turn clock, and under a finished game's score `game_over`: the
      record's download and the rematch) it includes from `games/board_parts.html`.
      The game page and its script (`static/js/board.js`) find a board's regions by id:
      `board` (the root, which the action forms target), `board-banner` (who acts),
      `board-actions` (the reader's move forms: the page's "Skip to your move" link) and
      `board-log` (its newest line marked `data-announce`).
    - `regions`: the live board's regions in page order (`Region`), each rendered on its own
      for a socket's push, between which the platform places its own: the message first, the
      reader's standing orders after `actions`. A kind that declares none draws its whole live
      board in one partial `live` instead (the frame, then every region as an oob swap).
    - `rules_template`: the rules page, given `kind`, `variant`, `variant_name`, `variants` and
      `names` (`rules_names(variant)`).
    - `stylesheet`: the static path of the kind's own board styles over the shared
      `board.css`, from the kind's own `static/` ("biblios/board.css", "exlibris/board.css"),
      linked only by the pages that draw its board or cards (game, replay, whole log,
      inspector, lesson: `{% kind_stylesheet game %}`; scoring demo, rules:
      `{% kind_stylesheet kind %}`), so no game carries another's.
    - `review`: how its decisions are graded (`Reviewer`); None: the kind has no review.
    - `orders`: the standing orders its players may give at a turn-based table (`OrderKind`);
      () for none.
    - `stage`: `ALPHA` keeps a kind being built off the lobby, the API and the pages.
    - `lesson`: the kind's guided first game and scoring demo (`Lesson`, from its `tutorial`
      module), played at /learn/<kind>/ without an account; None: the kind has none yet.
    """

    slug: str
    name: str
    engine: ModuleType
    variants: tuple[Variant, ...]
    options_form: Callable[..., Any]
    bot_levels: tuple[BotLevel, ...]
    stand_in: str
    default_bot: str
    bots: ModuleType
    parse_action: Callable[[Mapping], dict]
    presenter: ModuleType
    board_template: str
    rules_template: str
    rules_names: Callable[[str], dict] = field(default=lambda variant: {})
    stage: str = LIVE
    stylesheet: str = ""
    lesson: "Lesson | None" = None
    review: Reviewer | None = None
    daily: DailyTable | None = None
    orders: tuple[OrderKind, ...] = ()
    regions: tuple[Region, ...] = ()

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(self.engine.PLAYER_COUNTS)

    @property
    def default_variant(self) -> str:
        return self.variants[0].slug

    def variant_name(self, slug: str) -> str:
        return next((v.name for v in self.variants if v.slug == slug), slug)

    def bot_label(self, level: str) -> str:
        return next((str(b.label) for b in self.bot_levels if b.slug == level), level)

    def bot_rating(self, level: str) -> float | None:
        return next((b.rating for b in self.bot_levels if b.slug == level), None)

    @property
    def offered_bots(self) -> tuple[BotLevel, ...]:
        """The levels in the order a table offers them: `default_bot` first, then the others
        from the weakest up."""
        default = tuple(level for level in self.bot_levels if level.slug == self.default_bot)
        return default + tuple(level for level in self.bot_levels if level not in default)

    def order_kind(self, slug: str) -> OrderKind | None:
        return next((order for order in self.orders if order.slug == slug), None)

    @property
    def bot_level_slugs(self) -> tuple[str, ...]:
        return tuple(level.slug for level in self.bot_levels)


def option_applies(field, variant: str) -> bool:
    """Whether a table of `variant` has the option `field` of its kind's options form: every
    variant does, unless the field names its own in a `variants` attribute."""
    return variant in getattr(field, "variants", (variant,))


@dataclass(frozen=True)
class LessonStep:
    """One guided decision of a lesson (`games/learn.py` plays it).

    `expect`: the moves the step teaches, each a pattern an action matches when every key of
    the pattern has the action's value ({"type": "place", "to": "self"}); () accepts any legal
    move (a step that explains without steering). `when(view)`: the learner's decision this
    step waits for (None: the next one); until it holds the learner plays on with `hint`s.
    `say` (what to do) and `why` (the rule behind it, in the rules page's words) are lazy
    translations formatted with the lesson's `words(view)`; `anchor` is the rules section.
    """

    say: Any
    why: Any = ""
    expect: tuple[dict, ...] = ()
    when: Callable[[dict], bool] | None = None
    anchor: str = ""


@dataclass(frozen=True)
class Lesson:
    """A kind's guided first game against its weakest bot on a fixed deal, and its scoring demo.

    - `setup`: what the engine's `steps(setup, [])` deals (a fixed seed or deck: the same game
      every time) for `players` seats; `seat`: the learner's; `bot`: the level playing every
      other seat, its moves drawn from a seeded generator so the lesson replays identically.
    - `intro`: the first words; `steps`: the guided decisions in order (`LessonStep`);
      `hint(view)`: a "play on" line for the learner's other decisions.
    - `words(view)`: the values the steps' texts name (the card drawn, the Gold in hand…).
    - `ending(view)`: sentences explaining the finished game's score, from its view.
    - `scoring_template` (with a `demo` partial) and `scoring_context(query)`: the "how scoring
      works" page on a prepared end position; the query (a GET QueryDict) carries what the
      reader changed, and every figure shown comes from the engine's own scoring.
    """

    setup: dict
    players: int
    seat: int
    bot: str
    intro: Any
    steps: tuple[LessonStep, ...]
    hint: Callable[[dict], str]
    ending: Callable[[dict], list[str]]
    scoring_template: str
    scoring_context: Callable[[Mapping], dict]
    words: Callable[[dict], dict] = field(default=lambda view: {})
    variant: str = ""  # the variant `setup` deals ("": the kind's default)


class ActionInputError(ValueError):
    """A posted action that cannot even be read; the message says what is wrong."""


_registered: dict[str, GameKind] = {}


def register(kind: GameKind) -> None:
    """Add a kind beside the installed ones (a test's toy game); `unregister` takes it back."""
    _registered[kind.slug] = kind


def unregister(slug: str) -> None:
    _registered.pop(slug, None)


def kinds(*, include_alpha: bool = False) -> list[GameKind]:
    """The installed kinds (settings.GAME_KINDS order), then registered ones; live ones only
    unless `include_alpha`."""
    found = [importlib.import_module(f"{path}.kind").KIND for path in settings.GAME_KINDS]
    found += [kind for kind in _registered.values() if kind not in found]
    return [kind for kind in found if include_alpha or kind.stage == LIVE]


def get(slug: str, *, include_alpha: bool = False) -> GameKind:
    """The kind with `slug`; UnknownKind when none is installed (or it is still alpha)."""
    for kind in kinds(include_alpha=include_alpha):
        if kind.slug == slug:
            return kind
    raise UnknownKind(slug)


def of(game) -> GameKind:
    """The kind of a stored game, alpha or not (a game that exists is shown and replayed)."""
    return get(game.kind, include_alpha=True)


def choices(*, include_alpha: bool = False) -> list[tuple[str, str]]:
    return [(kind.slug, kind.name) for kind in kinds(include_alpha=include_alpha)]


def variant_choices() -> list[tuple[str, str]]:
    """Every (kind, variant) pair as "kind/variant" with its printed name: the filters of the
    history and the leaderboard."""
    return [
        (f"{kind.slug}/{variant.slug}", variant.name)
        for kind in kinds()
        for variant in kind.variants
    ]
