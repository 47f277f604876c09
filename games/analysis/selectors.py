"""A game's analysis as one reader may read it: its progress, and once done every graded
decision with its actions shown as the finished game's record shows them to that reader.

Each seat's own decisions are whole for that seat; another seat's actions, the move made and the
best one found alike, go through the engine's `public_action` (a card given away face down stays
its owner's), as in the record and the replay; staff read everything, as in the record.
"""

from django.utils.translation import gettext

from biblios_site import errors
from games import access
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
    engine = registry.of(analysis.game).engine
    reader = visitor.seat

    def shown(seat: int, action: dict) -> dict:
        return action if visitor.staff else engine.public_action(seat, action, reader)

    result = analysis.result
    data.update(
        measure=result["measure"],
        seats=result["seats"],
        decisions=[
            {
                **decision,
                "action": shown(decision["seat"], decision["action"]),
                "best": shown(decision["seat"], decision["best"]),
            }
            for decision in result["decisions"]
        ],
    )
    return data


def queue_position(analysis: Analysis) -> int | None:
    """1 for the next analysis to run; None once it runs or is over."""
    if analysis.status != Analysis.Status.QUEUED:
        return None
    ahead = Analysis.objects.filter(status=Analysis.Status.QUEUED, queued_at__lt=analysis.queued_at)
    return ahead.count() + 1
