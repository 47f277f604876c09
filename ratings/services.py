"""Rating a finished game: once, inside the transaction that finishes it.

`games.services` sends `games.signals.game_finished` right after it records the places, with the
game row locked; `rate_finished_game` receives it, so the ratings change in the same commit as
the finish or not at all, and games never imports ratings. Exactly once per game: a game that
already has changes is skipped, and the unique (game, user) constraint backs that up.
"""

from django.db import transaction
from django.dispatch import receiver

from games.kinds import registry
from games.models import Game, Seat
from games.signals import game_finished
from ratings import elo
from ratings.models import Rating, RatingChange


@receiver(game_finished, dispatch_uid="ratings.services.rate_finished_game")
def rate_finished_game(sender, game: Game, **kwargs) -> None:
    rate_game(game)


def rate_game(game: Game) -> list[RatingChange]:
    """Update the ratings of the people at a finished rated game; unrated games change nothing.

    A person's seat is rated on its final place even if a bot took it over after they left, so
    leaving a lost game never protects a rating. A bot's own seat counts at its level's fixed
    rating (its kind's `BotLevel.rating`, a newcomer's if it has none) and is never updated.
    """
    if not game.rated or game.status != Game.Status.FINISHED or not game.result:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    seats = list(game.seats.all())
    people = [seat for seat in seats if seat.user_id is not None]
    if not people:
        return []
    places = [player["place"] for player in game.result["players"]]
    with transaction.atomic():
        ratings = _locked_ratings([seat.user_id for seat in people], game.kind, game.variant)
        kind = registry.of(game)
        changes = elo.rating_changes([_entrant(kind, seat, places, ratings) for seat in seats])
        history = []
        for seat in people:
            rating = ratings[seat.user_id]
            before = rating.rating
            rating.rating = before + changes[seat.position]
            rating.games += 1
            history.append(
                RatingChange(
                    game=game,
                    user_id=seat.user_id,
                    kind=game.kind,
                    variant=game.variant,
                    place=places[seat.position],
                    before=before,
                    after=rating.rating,
                )
            )
        Rating.objects.bulk_update(ratings.values(), ["rating", "games"])
        return RatingChange.objects.bulk_create(history)


def _entrant(kind: registry.GameKind, seat: Seat, places: list, ratings: dict) -> elo.Entrant:
    place = places[seat.position]
    if seat.user_id is None:
        fixed = kind.bot_rating(seat.bot_level)
        rating = elo.START_RATING if fixed is None else fixed
        return elo.Entrant(seat.position, rating, place, k=None)
    rating = ratings[seat.user_id]
    return elo.Entrant(seat.position, rating.rating, place, k=elo.k_factor(rating.games))


def _locked_ratings(user_ids: list, kind: str, variant: str) -> dict:
    """Each player's Rating row in the variant (created at the start rating if new), locked,
    by user id.

    Rows are locked in user-id order, so two games finishing at once with the same players
    wait for each other instead of deadlocking.
    """
    Rating.objects.bulk_create(
        [Rating(user_id=user_id, kind=kind, variant=variant) for user_id in user_ids],
        ignore_conflicts=True,
    )
    rows = (
        Rating.objects.select_for_update()
        .filter(user_id__in=user_ids, kind=kind, variant=variant)
        .order_by("user_id")
    )
    return {rating.user_id: rating for rating in rows}
