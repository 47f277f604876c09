"""A game's analysis as one reader may read it: its progress, and once done every graded
decision with its actions shown as the finished game's record shows them to that reader.

Each seat's own decisions are whole for that seat; another seat's actions, the move made and the
best one found alike, go through the engine's `public_action` (a card given away face down stays
its owner's), as in the record and the replay; staff read everything, as in the record.
Another seat's best move, which was never played, may name what the game never showed (a Biblios
payment with Gold cards that were later discarded face down): it is shown only when it names
nothing hidden from the open-hands replay of that step and from the reader's own view there;
else it is null and `best_hidden` is true. The other moves each decision compared stay for the
page that asks its player to find a better one ("learn from your mistakes").
"""

import json

from django.utils.translation import gettext

from biblios_site import errors
from games import access
from games.history import folded
from games.kinds import registry
from games.models import Analysis, Game


def analysis_for(game: Game, visitor: access.Visitor) -> dict:
    """The game's analysis as the visitor may read it: whoever may read the game's record
    (`access.record_refusal`); NotFound until someone asked for it."""
    refusal = access.record_refusal(game, visitor)
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    analysis = Analysis.objects.filter(game=game).first()
    if analysis is None:
        raise errors.NotFound(gettext("nobody has asked for this game's review yet"))
    return analysis_data(analysis, visitor)


def analysis_data(analysis: Analysis, visitor: access.Visitor) -> dict:
    data = {
        "game": analysis.game_id,
        "status": analysis.status,
        "progress": {"done": analysis.done, "total": analysis.total},
        "queue_position": queue_position(analysis),
    }
    if analysis.status == Analysis.Status.FAILED:
        data["failure"] = analysis.failure
    if analysis.status != Analysis.Status.DONE:
        return data
    game = analysis.game
    engine = registry.of(game).engine
    reader = visitor.seat
    whole = visitor.staff
    states = []  # the game's states, once another seat's best move must be checked

    def shown(seat: int, action: dict) -> dict:
        return action if whole or seat == reader else engine.public_action(seat, action, reader)

    def best_shown(decision: dict) -> dict | None:
        best = shown(decision["seat"], decision["best"])
        if whole or decision["seat"] == reader:
            return best
        if not states:
            states.extend(folded.game_states(game))
        step = decision["move"] - 1
        known = strings_in(engine.open_hands_view(states, step))
        known |= strings_in(engine.view(states[step], reader))
        hidden = strings_in(json.loads(engine.dumps(states[step]))) - known
        return None if strings_in(best) & hidden else best

    result = analysis.result
    decisions = []
    for decision in result["decisions"]:
        best = best_shown(decision)
        decisions.append(
            {
                **{key: value for key, value in decision.items() if key != "alternatives"},
                "action": shown(decision["seat"], decision["action"]),
                "best": best,
                "best_hidden": best is None,
            }
        )
    data.update(measure=result["measure"], seats=result["seats"], decisions=decisions)
    return data


def strings_in(data) -> set[str]:
    """Every string value in JSON data (its keys are field names, not things)."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*(strings_in(value) for value in data.values()))
    if isinstance(data, list | tuple):
        return set().union(*(strings_in(item) for item in data))
    return set()


def queue_position(analysis: Analysis) -> int | None:
    """1 for the next analysis to run; None once it runs or is over."""
    if analysis.status != Analysis.Status.QUEUED:
        return None
    ahead = Analysis.objects.filter(status=Analysis.Status.QUEUED, queued_at__lt=analysis.queued_at)
    return ahead.count() + 1
