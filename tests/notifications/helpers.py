"""What the notification tests read: who was told what, in the site and by e-mail."""

import random
from collections import Counter

from django.core import mail

from games.access import Visitor
from games.play import selectors, services
from notifications.models import Delivery, Notification
from tests.turns.helpers import acting_seat


def move(game, rng: random.Random, now=None):
    """The seat the engine waits on plays a random legal move of its own view at `now`;
    the user who moved."""
    seat = acting_seat(game)
    board = selectors.board_for(game, Visitor.of(game, seat.user))
    action = rng.choice(board["legal_actions"])
    services.submit_action(game.pk, seat.user, action, version=game.version, now=now)
    return seat.user


def hand_over(game, rng):
    """Moves until the game waits on another player (a turn may be several moves, which push
    nothing); the player whose turn it was."""
    mover = acting_seat(game).user
    while acting_seat(game).user == mover:
        move(game, rng)
    return mover


def notices(user, event=None) -> list[Notification]:
    rows = Notification.objects.filter(recipient=user).order_by("pk")
    return list(rows.filter(event=event) if event else rows)


def mails_to(user) -> list:
    return [message for message in mail.outbox if message.to == [user.email]]


def mail_counts() -> Counter:
    """E-mails sent so far per (address, subject)."""
    return Counter((message.to[0], message.subject) for message in mail.outbox)


def unsent() -> int:
    return Delivery.objects.filter(sent_at=None).count()
