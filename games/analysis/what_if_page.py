"""The "what if" page: one of the reader's own graded decisions, played on by the bots from the
best move the review found there instead (`what_if.play_on`), told in the game log's words.

Only the decision's own player may ask: the branch starts from a world sampled from what that
seat knew, and is told as that seat would have seen it. Each numbered world is another deal of
the cards the player could not see; a branch is cached, so reading it again costs nothing.
"""

from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import gettext

from biblios_site import errors
from games import access
from games.analysis import review_page, what_if
from games.history import folded
from games.kinds import registry
from games.models import Analysis, Game
from games.play import selectors as play_selectors

WORLDS = 20  # the worlds a reader may deal in turn: enough to see the spread, bounded in CPU
CACHED_FOR_S = 3600


@dataclass(frozen=True)
class Place:
    name: str
    mine: bool
    branch: int  # the seat's place at the branch's end
    game: int | None  # its place in the game as played


def what_if_context(game: Game, visitor: access.Visitor, move: int, world: int) -> dict:
    """The page's context; NotAllowed for a reader who may not read the game's record or did
    not play the game, NotFound for a move that is not one of their decisions a better move
    was found at."""
    refusal = access.record_refusal(game, visitor)
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    if visitor.seat is None:
        raise errors.NotAllowed(gettext("only the game's players play their decisions on"))
    analysis = Analysis.objects.filter(game=game, status=Analysis.Status.DONE).first()
    if analysis is None:
        raise errors.NotFound(gettext("this game's review is not done yet"))
    decision = next(
        (
            d
            for d in analysis.result["decisions"]
            if d["move"] == move and d["seat"] == visitor.seat and d["best"] != d["action"]
        ),
        None,
    )
    if decision is None:
        raise errors.NotFound(gettext("the review found no better move of yours at that move"))
    kind = registry.of(game)
    branch = cached_branch(game, decision, world)
    names = play_selectors.seat_names(game)
    state = folded.game_states(game)[move - 1]
    played = {row["seat"]: row["place"] for row in (game.result or {}).get("players", [])}
    return {
        "game": game,
        "names": names,
        "me": visitor.seat,
        "board_template": kind.board_template,
        "move": move,
        "grade_label": review_page.GRADE_LABELS[decision["grade"]],
        "made": folded.game_steps(game, visitor.seat)[move],
        "best": review_page.first_event(kind.engine, state, visitor.seat, decision["best"]),
        "steps": [
            (move + number, events) for number, (_, events) in enumerate(branch.steps) if events
        ],
        "places": [
            Place(
                names[row["seat"]],
                row["seat"] == visitor.seat,
                row["place"],
                played.get(row["seat"]),
            )
            for row in sorted(branch.result["players"], key=lambda row: row["place"])
        ],
        "world": world,
        "next_world": world % WORLDS + 1,
        "worlds": WORLDS,
    }


def cached_branch(game: Game, decision: dict, world: int) -> what_if.Branch:
    """The branch of `decision` in the numbered `world`, played once and cached."""
    key = f"what-if/{game.pk}/{game.created_at.timestamp()}/{decision['move']}/{world}"
    branch = cache.get(key)
    if branch is None:
        kind = registry.of(game)
        moves = list(game.moves.order_by("seq").values_list("seat", "action"))
        branch = what_if.play_on(
            kind,
            game.setup,
            moves,
            game.num_players,
            decision["move"],
            decision["best"],
            seed=f"{game.pk}/{world}",
        )
        cache.set(key, branch, CACHED_FOR_S)
    return branch
