"""What a notification says, in its reader's language.

Rendered when shown or sent, never stored (a moderator's message aside): from the event, the
game's number and printed variant, the actor's display name and, at the end, the reader's own
place. Nothing a game hides (cards, hands) is ever named: the texts are built from public facts
only, and tests/notifications/test_leaks.py scans them over whole games.
"""

from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from notifications.models import Notification

Event = Notification.Event


@dataclass(frozen=True)
class Text:
    title: str
    body: str
    path: str  # where it leads, on this site

    @property
    def url(self) -> str:
        return absolute(self.path)


def absolute(path: str) -> str:
    """A link for outside the site (e-mails, pushes): SITE_URL plus the path."""
    return settings.SITE_URL.rstrip("/") + path


def language_of(user) -> str:
    """The reader's profile language, else the site's default (an e-mail has no browser)."""
    language = getattr(user, "language", "")
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def render(notification: Notification) -> Text:
    """The notification's title, body and link in the recipient's language."""
    with translation.override(language_of(notification.recipient)):
        return text_of(notification)


def text_of(notification: Notification) -> Text:
    """The notification's texts in the active language (a page's: its reader is the recipient)."""
    game = notification.game
    event = notification.event
    actor = str(notification.actor) if notification.actor_id else gettext("A player")
    if notification.tournament_id is not None:
        return _about_a_tournament(notification)
    if game is None:
        return _about_the_reader(notification, actor)
    names = {"number": game.pk, "variant": game.variant_name, "actor": actor}
    path = reverse("game", args=[game.pk])
    if event == Event.YOUR_TURN:
        title = gettext("Your turn in game %(number)s") % names
        body = gettext("%(variant)s, game %(number)s, is waiting for your move.") % names
    elif event == Event.GAME_STARTED:
        title = gettext("Game %(number)s has started") % names
        body = gettext("%(actor)s started %(variant)s game %(number)s.") % names
    elif event == Event.GAME_FINISHED:
        title = gettext("Game %(number)s is over") % names
        body = _finish(game, notification.recipient_id, names)
    elif event == Event.INVITATION:
        title = gettext("%(actor)s invites you to a table") % names
        body = gettext("%(actor)s invites you to %(variant)s table %(number)s.") % names
        path = _invite_link(game)
    elif event == Event.ORDER_STOPPED:  # why, the board says: an order is its player's alone
        title = gettext("Your standing order in game %(number)s switched off") % names
        body = (
            gettext(
                "%(variant)s, game %(number)s: your standing order switched itself off on "
                "something it was not given for; the board says what."
            )
            % names
        )
    else:  # Event.REMATCH
        title = gettext("%(actor)s wants a rematch") % names
        body = gettext("%(actor)s opened a new %(variant)s table, %(number)s: join them.") % names
        path = _invite_link(game)
    return Text(title, body, path)


def _about_the_reader(notification: Notification, actor: str) -> Text:
    """A notice of no game: a friend's request or answer, a moderator's message or mute."""
    event = notification.event
    names = {"actor": actor}
    if event == Event.FRIEND_REQUEST:
        return Text(
            gettext("%(actor)s wants to be your friend") % names,
            gettext(
                "%(actor)s sent you a friend request: accept or refuse it on your friends page."
            )
            % names,
            reverse("friends:page"),
        )
    if event == Event.FRIEND_ACCEPTED:
        return Text(
            gettext("%(actor)s accepted your friend request") % names,
            gettext("You and %(actor)s are friends now: invite them to your tables.") % names,
            reverse("friends:page"),
        )
    if event == Event.MUTED:
        end = formats.date_format(timezone.localtime(notification.until), "DATETIME_FORMAT")
        zone = timezone.get_current_timezone_name()
        return Text(
            gettext("You are muted in table chats"),
            gettext(
                "A moderator muted you in table chats until %(end)s (%(zone)s). Reason: %(reason)s"
            )
            % {"end": end, "zone": zone, "reason": notification.text},
            reverse("notifications:list"),
        )
    return Text(
        gettext("A message from the moderators"), notification.text, reverse("notifications:list")
    )


def _about_a_tournament(notification: Notification) -> Text:
    """A tournament's notice: the registration, a round's start (the reader's table, or a
    bye), a withdrawal, the end or the cancellation. Its name is the staff's, public."""
    tournament, game, event = notification.tournament, notification.game, notification.event
    names = {"name": tournament.name}
    path = reverse("tournament", args=[tournament.pk])
    if event == Event.TOURNEY_REGISTERED:
        start = formats.date_format(timezone.localtime(tournament.starts_at), "DATETIME_FORMAT")
        title = gettext("You are registered for %(name)s") % names
        body = gettext(
            "%(name)s starts %(start)s (%(zone)s). Check in on its page in the half hour "
            "before the start, or you will be withdrawn."
        ) % {**names, "start": start, "zone": timezone.get_current_timezone_name()}
    elif event == Event.TOURNEY_ROUND and game is not None:
        title = gettext("%(name)s: a round has started") % names
        body = gettext("Your table is game %(number)s: play now.") % {"number": game.pk}
        path = reverse("game", args=[game.pk])
    elif event == Event.TOURNEY_ROUND:
        title = gettext("%(name)s: a round has started") % names
        body = gettext("You rest this round: a bye scores as a win.")
    elif event == Event.TOURNEY_WITHDRAWN:
        title = gettext("You are withdrawn from %(name)s") % names
        body = gettext("You will not be seated in its next rounds; your results so far stay.")
    elif event == Event.TOURNEY_OVER:
        title = gettext("%(name)s is over") % names
        body = gettext("The final standings are on the tournament's page.")
    else:  # Event.TOURNEY_CANCELLED
        title = gettext("%(name)s is cancelled") % names
        body = gettext("No more rounds will be played.")
    return Text(title, body, path)


def _invite_link(game) -> str:
    """The table's invite link: the invitation is the recipient's way in, a private table's
    too (following it seats them while a seat is free, else shows the table)."""
    return reverse("invite", args=[game.invite_code])


def _finish(game, user_id: int, names: dict) -> str:
    """The end of a game for one player: their place, public once the game is over."""
    seat = game.seats.filter(user_id=user_id).first()
    if seat is None or seat.place is None:
        return gettext("%(variant)s game %(number)s is over.") % names
    places = {**names, "place": seat.place, "count": game.num_players}
    if seat.won:
        return gettext("%(variant)s game %(number)s is over: you won!") % places
    return (
        gettext("%(variant)s game %(number)s is over: you finished %(place)s of %(count)s.")
        % places
    )
