"""Table chat and reports: the services every edge (views, admin, sockets) goes through.

Players talk in their channel; spectators in theirs, which players do not see until the game
is over (so watchers cannot pass them hints): who reads which is `games.access.chat_channels`.
Pushes are hints like the board's: each socket re-reads the channels its user may see, without
the messages of the users its reader blocked (`recent`).
"""

import datetime
import math

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from biblios_site import errors, ratelimit
from friends import selectors as friendships
from games import access
from games.models import ChatMessage, Game, ModerationAction, Report
from games.play import broadcast

MAX_LENGTH = 500
SHOWN = 50  # newest messages shown per channel
Channel = ChatMessage.Channel


def recent(game: Game, channel: str, reader=None) -> list[ChatMessage]:
    """The channel's newest messages as `reader` reads them: without those of the users they
    blocked (everyone else still reads them)."""
    newest = game.chat_messages.filter(channel=channel).select_related("user")
    blocked = friendships.blocked_ids(reader)
    if blocked:
        newest = newest.exclude(user_id__in=blocked)
    return list(newest.order_by("-created_at", "-pk")[:SHOWN])[::-1]


def post_message(game_id: int, user, text, *, invited: bool = False) -> ChatMessage:
    """Post to the user's channel of the table: players', or spectators' if not seated
    (`games.access.chat_channels`, asked of the seat read under the lock; `invited`: the user
    holds the table's invite, as their door read it).

    Refused for muted users, empty or overlong text, more messages than settings.RATE_LIMITS
    ["chat"] allows (counted exactly, in a sliding window), or repeating either of one's last two
    messages at this table.
    """
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise errors.NotAllowed(gettext("log in to chat"))
    if not isinstance(text, str) or not text.strip():
        raise errors.ServiceError(gettext("write a message first"))
    text = text.strip()
    if len(text) > MAX_LENGTH:
        raise errors.ServiceError(
            f"messages are at most {MAX_LENGTH} characters (yours has {len(text)})"
        )
    with transaction.atomic():
        # The user's row lock makes the flood count exact under concurrent posts.
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if user.muted():
            until = timezone.localtime(user.muted_until).strftime("%Y-%m-%d %H:%M")
            raise errors.NotAllowed(f"a moderator muted you until {until}")
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise errors.NotFound(f"there is no game {game_id}")
        channels = access.chat_channels(game, access.Visitor.of(game, user, invited=invited))
        if not channels:
            raise errors.NotAllowed(
                gettext("you may not watch this table, so you cannot chat there")
            )
        _refuse_flood(user)
        last_two = ChatMessage.objects.filter(user=user, game=game).order_by("-created_at", "-pk")
        if text in last_two.values_list("text", flat=True)[:2]:
            raise errors.ServiceError(gettext("you just said that"))
        channel = channels[0]
        message = ChatMessage.objects.create(
            game=game, user=user, channel=channel, text=text, move_number=game.version
        )
        transaction.on_commit(lambda: broadcast.chat_changed(game_id, channel))
    return message


def _refuse_flood(user) -> None:
    """RateLimited if `user` posted the chat limit's count of messages within its window; the
    wait is until the oldest of them leaves the window."""
    count, seconds = ratelimit.parse(settings.RATE_LIMITS["chat"])
    now = timezone.now()
    window = datetime.timedelta(seconds=seconds)
    recent_times = ChatMessage.objects.filter(user=user, created_at__gte=now - window)
    newest = list(recent_times.order_by("-created_at").values_list("created_at", flat=True)[:count])
    if len(newest) >= count:
        wait = (newest[-1] + window - now).total_seconds()
        raise ratelimit.RateLimited(
            max(1, math.ceil(wait)),
            gettext("at most %(count)s messages per %(seconds)s seconds; wait a moment")
            % {"count": count, "seconds": seconds},
        )


def report(game_id: int, reporter, reason, *, invited: bool = False, message_id=None, user_id=None):
    """Report a chat message or a player of this game; records the move it happened at.

    Limited per reporter and per (reporter, reported player) (settings.RATE_LIMITS), so nobody
    buries a player, or the moderators' queue, under reports."""
    if not getattr(reporter, "is_authenticated", False):
        raise errors.NotAllowed(gettext("log in to report"))
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise errors.ServiceError(gettext("say why you are reporting"))
    if len(reason) > MAX_LENGTH:
        raise errors.ServiceError(f"a reason is at most {MAX_LENGTH} characters")
    if (message_id is None) == (user_id is None):
        raise errors.ServiceError(gettext("report either a message or a player"))
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(f"there is no game {game_id}")
    readable = access.chat_channels(game, access.Visitor.of(game, reporter, invited=invited))
    if message_id is not None:
        message = game.chat_messages.filter(pk=message_id, channel__in=readable).first()
        if message is None:
            raise errors.NotFound(gettext("there is no such message at this table"))
        reported, move_number = message.user, message.move_number
    else:
        message = None
        seat = game.seats.select_related("user").filter(user_id=user_id).first()
        if seat is None or not readable:
            raise errors.NotFound(gettext("that player is not at this table"))
        reported, move_number = seat.user, game.version
    if reported.pk == reporter.pk:
        raise errors.ServiceError(gettext("you cannot report yourself"))
    ratelimit.hit("report_pair", f"{reporter.pk}:{reported.pk}")
    ratelimit.hit("report", reporter.pk)
    return Report.objects.create(
        reporter=reporter,
        game=game,
        move_number=move_number,
        message=message,
        reported_user=reported,
        reason=reason,
    )


def hide_message(message_id: int, moderator, reason: str) -> ChatMessage:
    """A moderator hides a message from every reader; logged with why."""
    if not getattr(moderator, "is_staff", False):
        raise errors.NotAllowed(gettext("only moderators can hide messages"))
    reason = (reason or "").strip()
    if not reason:
        raise errors.ServiceError(gettext("give a reason"))
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise errors.NotFound(f"there is no message {message_id}")
        if message.hidden:
            raise errors.Conflict(gettext("this message is hidden already"))
        message.hidden = True
        message.save(update_fields=["hidden"])
        ModerationAction.objects.create(
            moderator=moderator,
            kind=ModerationAction.Kind.HIDE_MESSAGE,
            user=message.user,
            game=message.game,
            reason=reason,
            detail={"message": message.pk, "text": message.text},
        )
        game_id, channel = message.game_id, message.channel
        transaction.on_commit(lambda: broadcast.chat_changed(game_id, channel))
    return message


def resolve_report(report_id: int, moderator, reason: str) -> Report:
    if not getattr(moderator, "is_staff", False):
        raise errors.NotAllowed(gettext("only moderators can resolve reports"))
    reason = (reason or "").strip()
    if not reason:
        raise errors.ServiceError(gettext("say how the report was resolved"))
    with transaction.atomic():
        found = Report.objects.select_for_update().filter(pk=report_id).first()
        if found is None:
            raise errors.NotFound(f"there is no report {report_id}")
        if found.status == Report.Status.RESOLVED:
            raise errors.Conflict(gettext("this report is resolved already"))
        found.status = Report.Status.RESOLVED
        found.save(update_fields=["status"])
        ModerationAction.objects.create(
            moderator=moderator,
            kind=ModerationAction.Kind.RESOLVE_REPORT,
            user=found.reported_user,
            game=found.game,
            reason=reason,
            detail={"report": found.pk},
        )
    return found
