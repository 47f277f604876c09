"""Turn-based play between friends, through the pages where a person would act: two friends start a
24-hour turn-based game for friends only, each is told by e-mail and on their phone (a push
at a local push service) whenever it becomes their turn, they play a move a day, and finish.
"""

import random
import re
from collections import Counter
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.access import Visitor
from games.models import Game
from games.play import selectors, services
from notifications import sending, texts
from notifications.models import Notification
from tests.play import make_users
from tests.turnbased.helpers import browser
from tests.turns.helpers import acting_seat
from tests.webpush.conftest import push_service, vapid  # noqa: F401  (push on, a local service)
from tests.webpush.push_service import BrowserKeys
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


@pytest.fixture
def friends(django_user_model, vapid, push_service):  # noqa: F811
    """Ada and Basil, each with an e-mail address and a phone subscribed to push."""
    ada, basil = make_users(django_user_model, "friend", count=2)
    for person, address in ((ada, "ada@example.org"), (basil, "basil@example.org")):
        person.email = address
        person.save(update_fields=["email"])
        person.keys = BrowserKeys()
        subscription = person.keys.subscription(push_service.url(person.username))
        PushSubscription.objects.create(
            user=person, endpoint=subscription["endpoint"], **subscription["keys"]
        )
        person.client = browser(person)
    return ada, basil


def pushed(push_service, person) -> list[dict]:  # noqa: F811
    return [person.keys.decrypt(m.body) for m in push_service.on(person.username) if m.accepted]


# Seeds of the deal: the host moves first (1), or her friend does (2).
@pytest.mark.parametrize("seed", [1, 2], ids=["host-first", "friend-first"])
def test_two_friends_play_a_24_hour_game_a_move_a_day_told_by_mail_and_push(
    friends,
    push_service,  # noqa: F811
    seed,
):
    ada, basil = friends
    # Friends, through the profile's buttons.
    ada.client.post(reverse("friends:act", args=["request"]), {"user": basil.pk})
    sending.send_pending()  # what the worker does after the commit: Basil is told
    basil.client.post(reverse("friends:act", args=["accept"]), {"user": ada.pk})
    # Ada opens a 24-hour table for her friends only and invites Basil from its page.
    ada.client.post(
        reverse("table_create"),
        {"num_players": "2", "variant": "biblios", "turn_seconds": str(DAY), "friends_only": "on"},
    )
    game = Game.objects.get()
    assert (game.turn_seconds, game.friends_only, game.turn_based) == (DAY, True, True)
    ada.client.post(reverse("game_invite_friend", args=[game.pk]), {"friend": basil.pk})
    sending.send_pending()
    invitation = basil.client.get(reverse("notifications:list")).content.decode()
    join = re.search(
        r'<form method="post" action="([^"]+)"[^>]*>.{0,200}?Join</button>', invitation, re.S
    )
    assert join, "the invitation has its join button"
    basil.client.post(join.group(1))
    Game.objects.filter(pk=game.pk).update(seed=seed)
    assert ada.client.post(reverse("game_start", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE

    # A move a day, each made the day after the last, well inside the 24 hours.
    rng = random.Random(19)
    now = timezone.now()
    # Who moves first is drawn from the table's seed: told at the start, unless it is the host,
    # who started the game on its page.
    first = acting_seat(game).user
    assert first == (ada if seed == 1 else basil)
    turns_given = Counter([first.pk] if first != ada else [])
    while game.status == Game.Status.ACTIVE:
        mover = acting_seat(game).user
        now += timedelta(hours=23)
        action = rng.choice(selectors.board_for(game, Visitor.of(game, mover))["legal_actions"])
        services.submit_action(game.pk, mover, action, version=game.version, now=now)
        game.refresh_from_db()
        sending.send_pending()  # what the worker does after each commit
        if game.status == Game.Status.ACTIVE and acting_seat(game).user != mover:
            turns_given[acting_seat(game).user.pk] += 1
    assert not game.moves.exclude(played_by="player").exists()  # nobody ran out of time

    for person in friends:
        notices = Notification.objects.filter(recipient=person)
        your_turns = notices.filter(event=Notification.Event.YOUR_TURN)
        # Told each time the game came to them, never for their own moves; their list keeps
        # one "Your turn" for the game, the newest.
        assert your_turns.count() == 1 and turns_given[person.pk] > 10
        assert notices.filter(event=Notification.Event.GAME_FINISHED).count() <= 1
        # Each turn and every other notice exactly once by e-mail and once on the phone,
        # saying the same.
        expected = Counter((text.title, text.url) for text in map(texts.render, notices))
        turn = texts.render(your_turns.get())
        expected[turn.title, turn.url] = turns_given[person.pk]
        mails = [message for message in mail.outbox if message.to == [person.email]]
        assert Counter((m.subject, next(u for u in expected_urls(m.body))) for m in mails) == (
            expected
        )
        phone = pushed(push_service, person)
        assert Counter((p["title"], p["url"]) for p in phone) == expected
    game_url = texts.absolute(reverse("game", args=[game.pk]))
    assert (
        Counter(p["url"] for person in friends for p in pushed(push_service, person)).most_common(
            1
        )[0][0]
        == game_url
    )


def expected_urls(body: str) -> list[str]:
    """The links of an e-mail's text, the notice's own first."""
    return re.findall(r"https?://\S+", body)
