"""A rematch offer: it never passes a block, and each player of a game offers one once.

"Once per game and player": the first offer of each player opens a table and tells the other
players; asking again while that table is open only leads back to it; once it is closed (its
host left) or gone, the same player's new offer is refused at every door, so nobody is told
twice by the same player. Another player of the game may still offer once, which bounds the
notices of a game at one per other player.
"""

import random

import pytest
from django.test import Client
from django.urls import reverse

from biblios_site import errors
from friends import services as friends
from games.models import Game, RematchOffer
from games.tables import services
from notifications.models import Delivery, Notification
from tests.play import make_users, play_to_end, started_game
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

REMATCH = Notification.Event.REMATCH


@pytest.fixture
def people(django_user_model, settings):
    """ada, basil, clio (who play) and dora, each with an e-mail address and a push
    subscription, push switched on: a notice would leave by e-mail and by push."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    settings.VAPID_SUBJECT = "mailto:admin@example.org"
    users = make_users(django_user_model, "reader")
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
        PushSubscription.objects.create(
            user=user, endpoint=f"https://push.example/{user.pk}", p256dh="k", auth="a"
        )
    return users


def finished(players) -> Game:
    """A finished game of `players` (its status is what a rematch reads)."""
    game = started_game(players, len(players), seed=11)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def told(user) -> list[tuple[int, str]]:
    """(table, asker) of each rematch notice `user` got."""
    rows = Notification.objects.filter(recipient=user, event=REMATCH).order_by("pk")
    return list(rows.values_list("game_id", "actor__username"))


def outbox(user) -> list[str]:
    """The channels of the deliveries waiting to leave for `user`'s rematch notices."""
    rows = Delivery.objects.filter(notification__recipient=user, notification__event=REMATCH)
    return sorted(rows.values_list("channel", flat=True))


def browser(user, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


# ------------------------------------------------------------------------------- blocks


@pytest.mark.parametrize("who_blocked", ["the asker", "the other player"])
def test_no_rematch_notice_e_mail_or_push_passes_a_block(people, who_blocked):
    ada, basil, clio, _ = people
    game = finished([ada, basil, clio])
    if who_blocked == "the asker":
        friends.block(ada, basil)
    else:
        friends.block(basil, ada)
    table = services.rematch(game.pk, ada)
    assert told(clio) == [(table.pk, ada.username)]
    assert outbox(clio) == ["email", "push"]
    assert told(basil) == [] and outbox(basil) == []
    # Nor is the blocked table offered to basil: his request opens a table of his own, whose
    # notice goes to clio and not to ada.
    own = services.rematch(game.pk, basil)
    assert own.pk != table.pk and own.host == basil
    assert not own.seats.filter(user=ada).exists() and not table.seats.filter(user=basil).exists()
    assert told(ada) == [] and outbox(ada) == []
    assert told(clio) == [(table.pk, ada.username), (own.pk, basil.username)]


def test_the_blocked_player_is_not_shown_the_offer_on_the_finished_board(people):
    ada, basil, clio, _ = people
    game = play_to_end(started_game([ada, basil, clio], 3, seed=12), random.Random(12))
    friends.block(basil, ada)
    services.rematch(game.pk, ada)
    page = reverse("game", args=[game.pk])
    assert "offers a rematch" in browser(clio).get(page).content.decode()
    basils = browser(basil).get(page).content.decode()
    assert "offers a rematch" not in basils and "Play again with the same players" in basils


# ------------------------------------------------------------------------- once per player


def test_a_player_offers_a_rematch_of_a_game_once_for_good(people):
    ada, basil, clio, _ = people
    game = finished([ada, basil, clio])
    table = services.rematch(game.pk, ada)
    assert services.rematch(game.pk, ada).pk == table.pk  # asking again leads back to it
    # Leaving closes the table (ada hosts it); asking again is refused, and tells nobody.
    services.leave_table(table.pk, ada)
    with pytest.raises(errors.Conflict, match="already offered a rematch of this game"):
        services.rematch(game.pk, ada)
    assert told(basil) == [(table.pk, ada.username)] and outbox(basil) == ["email", "push"]
    assert told(clio) == [(table.pk, ada.username)] and outbox(clio) == ["email", "push"]
    # The record outlives the table itself (whose notices go with it).
    Game.objects.filter(pk=table.pk).delete()
    with pytest.raises(errors.Conflict, match="already offered a rematch of this game"):
        services.rematch(game.pk, ada)
    assert RematchOffer.objects.filter(game=game, asker=ada, table=None).count() == 1
    assert not Notification.objects.filter(event=REMATCH).exists()
    assert not Game.objects.exclude(pk=game.pk).exists()


def test_each_other_player_may_still_offer_once(people):
    ada, basil, clio, _ = people
    game = finished([ada, basil, clio])
    first = services.rematch(game.pk, ada)
    services.leave_table(first.pk, ada)
    second = services.rematch(game.pk, basil)  # basil had not offered: his opens a table
    assert second.host == basil and second.pk != first.pk
    services.rematch(game.pk, clio)  # the one-click join is no offer
    services.leave_table(second.pk, clio)
    services.rematch(game.pk, clio)  # nor is joining again
    services.leave_table(second.pk, basil)
    with pytest.raises(errors.Conflict):
        services.rematch(game.pk, basil)
    third = services.rematch(game.pk, clio)
    services.leave_table(third.pk, clio)
    for player in (ada, basil, clio):
        with pytest.raises(errors.Conflict):
            services.rematch(game.pk, player)
    # One notice per other player's offer, whatever the number of requests.
    assert told(ada) == [(second.pk, "reader1"), (third.pk, "reader2")]
    assert told(basil) == [(first.pk, "reader0"), (third.pk, "reader2")]
    assert told(clio) == [(first.pk, "reader0"), (second.pk, "reader1")]
    assert RematchOffer.objects.filter(game=game).count() == 3


@pytest.mark.parametrize(
    "language, refusal",
    [
        ("en", "You have already offered a rematch of this game."),
        ("fr", "Vous avez déjà proposé une revanche de cette partie."),
        ("es", "Ya has propuesto una revancha de esta partida."),
    ],
)
def test_a_second_offer_is_refused_by_plain_post_and_htmx_with_a_clear_message(
    people, language, refusal
):
    ada, basil, _, _ = people
    game = play_to_end(started_game([ada, basil], 2, seed=13), random.Random(13))
    client = browser(ada, language)
    url = reverse("game_rematch", args=[game.pk])
    table = Game.objects.get(pk=services.rematch(game.pk, ada).pk)
    services.leave_table(table.pk, ada)
    page = client.post(url, follow=True).content.decode()
    assert refusal in page
    htmx = client.post(url, headers={"HX-Request": "true"})
    assert htmx["HX-Redirect"] == reverse("game", args=[game.pk])
    assert refusal in client.get(htmx["HX-Redirect"]).content.decode()
    # The board says so instead of offering a button that would be refused.
    board = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f'action="{url}"' not in board
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 0
    assert told(basil) == [(table.pk, ada.username)]
