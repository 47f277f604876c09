"""The e-mail choice (each notice, a daily digest, none) and the one-click unsubscribe link that
needs no log-in."""

import json
import random
import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from notifications import sending, services, tokens
from notifications.models import Delivery, Notification, Preference
from tests.notifications.helpers import mails_to, move, notices
from tests.play import started_game

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def play(people, committed, moves: int, seed: int = 11):
    game = committed(started_game, people[:2], 2, seed=seed, turn_seconds=86400)
    rng = random.Random(seed)
    for _ in range(moves):
        committed(move, game, rng)
    return game


def test_each_notice_is_e_mailed_by_default(people, committed):
    play(people, committed, 10)
    for user in people[:2]:
        assert services.email_choice(user) == Preference.Email.EACH
        assert len(mails_to(user)) == len(notices(user)) > 0


def test_none_sends_no_e_mail_but_keeps_the_notices(people, committed):
    for user in people[:2]:
        services.set_email_choice(user, Preference.Email.NONE)
    play(people, committed, 10)
    assert Notification.objects.count() > 2
    assert mail.outbox == [] and not Delivery.objects.exists()


def test_a_digest_gathers_a_day_of_notices_into_one_e_mail(people, committed):
    ada, basil = people[:2]
    services.set_email_choice(ada, Preference.Email.DIGEST)
    # Two games: each keeps one "Your turn" of hers, the newest (its digest place kept).
    play(people, committed, 24)
    play(people, committed, 24, seed=13)
    mine = notices(ada)
    assert len(mine) >= 2 and mails_to(ada) == []  # nothing before the day is out
    # Basil's e-mails went each as it came (a turn each, though his list keeps the newest).
    assert len(mails_to(basil)) >= len(notices(basil))
    assert not Delivery.objects.filter(notification__recipient=basil, sent_at=None).exists()
    digests = Delivery.objects.filter(channel=Delivery.Channel.DIGEST)
    assert digests.count() == len(mine) and len(set(digests.values_list("due_at", flat=True))) == 1
    due = digests.first().due_at
    assert due - mine[0].created_at <= DAY
    assert sending.send_pending(now=due - timedelta(seconds=1)) == 0
    assert sending.send_pending(now=due) == len(mine)
    assert sending.send_pending(now=due + DAY) == 0
    (digest,) = mails_to(ada)
    assert digest.subject == f"Your day on Biblios Online: {len(mine)} notices"
    assert digest.body.count("Your turn in game") == len(mine)
    assert "List-Unsubscribe" in digest.extra_headers
    # The next notice starts the next day's digest.
    play(people[:2], committed, 12, seed=12)
    waiting = Delivery.objects.filter(channel=Delivery.Channel.DIGEST, sent_at=None)
    assert waiting.exists() and waiting.first().due_at > timezone.now() + DAY / 2


def test_changing_the_choice_moves_the_waiting_e_mails(people, committed):
    ada = people[0]
    services.set_email_choice(ada, Preference.Email.DIGEST)
    play(people, committed, 24)
    play(people, committed, 24, seed=13)
    waiting = Delivery.objects.filter(notification__recipient=ada, sent_at=None)
    count = waiting.count()
    assert count >= 2
    services.set_email_choice(ada, Preference.Email.EACH)
    assert sending.send_pending() == count
    assert len(mails_to(ada)) == count


def test_the_profile_shows_and_saves_the_choice(people):
    ada, basil = people[:2]
    client = Client()
    client.force_login(ada)
    page = client.get(reverse("accounts:profile", args=[ada.username])).content.decode()
    assert 'name="email" value="each" checked' in page
    assert "One e-mail a day, a digest" in page
    other = client.get(reverse("accounts:profile", args=[basil.username])).content.decode()
    assert 'name="email"' not in other
    back = reverse("accounts:profile", args=[ada.username])
    answer = client.post(reverse("notifications:settings"), {"email": "digest", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    assert services.email_choice(ada) == Preference.Email.DIGEST
    refused = client.post(reverse("notifications:settings"), {"email": "hourly"})
    assert (
        refused.status_code == 400
        and "Choose one of the e-mail options" in refused.content.decode()
    )
    assert services.email_choice(ada) == Preference.Email.DIGEST
    assert Client().post(reverse("notifications:settings"), {"email": "none"}).status_code == 302
    assert services.email_choice(ada) == Preference.Email.DIGEST  # a visitor changed nothing


def unsubscribe_link(message) -> str:
    link = re.search(r"http://localhost:8000(/notifications/unsubscribe/[^/\s]+/)", message.body)
    assert link, message.body
    assert message.extra_headers["List-Unsubscribe"] == f"<http://localhost:8000{link[1]}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    return link[1]


def test_every_e_mail_unsubscribes_in_one_click_without_logging_in(people, committed):
    play(people, committed, 6)
    message = mail.outbox[0]
    user = next(u for u in people if u.email == message.to[0])
    link = unsubscribe_link(message)
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(link)
    assert page.status_code == 200 and "Stop all e-mail" in page.content.decode()
    assert services.email_choice(user) == Preference.Email.EACH  # a GET changes nothing
    # A mail client's one-click unsubscribe (RFC 8058): a POST with no cookie nor CSRF token.
    done = visitor.post(link, "List-Unsubscribe=One-Click", content_type="text/plain")
    assert done.status_code == 200 and "no more e-mail" in done.content.decode()
    assert services.email_choice(user) == Preference.Email.NONE
    sent = len(mail.outbox)
    play(people, committed, 6, seed=13)
    assert len(mail.outbox) > sent and not any(m.to == [user.email] for m in mail.outbox[sent:])


@pytest.mark.parametrize("how", ["forged", "garbage", "expired", "closed"])
def test_a_bad_or_expired_link_says_so_and_changes_nothing(people, monkeypatch, how):
    ada = people[0]
    token = tokens.unsubscribe_token(ada)
    if how == "forged":
        token = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    elif how == "garbage":
        token = "not-a-token"
    elif how == "expired":
        monkeypatch.setattr(tokens, "UNSUBSCRIBE_MAX_AGE_S", -1)
    else:
        ada.is_active = False
        ada.save()
    for method in ("get", "post"):
        page = getattr(Client(), method)(reverse("notifications:unsubscribe", args=[token]))
        assert page.status_code == 400
        assert "not valid or has expired; nothing was changed" in page.content.decode()
    assert not Preference.objects.exists()


def test_a_token_names_one_user_only(people):
    ada, basil = people[:2]
    assert tokens.link_of(tokens.unsubscribe_token(ada)).user == ada
    Client().post(reverse("notifications:unsubscribe", args=[tokens.unsubscribe_token(basil)]))
    assert services.email_choice(ada) == Preference.Email.EACH
    assert services.email_choice(basil) == Preference.Email.NONE


SPENT = "used already, or your e-mail choice has changed since it was sent; nothing was changed"


def link_to(user) -> str:
    """The unsubscribe link of the last e-mail `user` got."""
    return unsubscribe_link(mails_to(user)[-1])


def one_click(link: str):
    """What a mail client sends for List-Unsubscribe-Post (RFC 8058): no cookie, no token."""
    return Client(enforce_csrf_checks=True).post(
        link, "List-Unsubscribe=One-Click", content_type="text/plain"
    )


def test_a_link_turns_e_mail_off_once(people, committed):
    play(people, committed, 6)
    user = next(u for u in people if mails_to(u))
    link = link_to(user)

    assert one_click(link).status_code == 200
    assert services.email_choice(user) == Preference.Email.NONE
    version = tokens.email_version(user)

    for again in (one_click(link), Client().get(link)):
        assert again.status_code == 410
        page = again.content.decode()
        assert SPENT in page and reverse("accounts:my_profile") in page
        assert f'action="{link}"' not in page  # nothing left to confirm
    assert services.email_choice(user) == Preference.Email.NONE
    assert tokens.email_version(user) == version  # a refused link changes nothing


def test_an_old_link_after_e_mail_is_back_on_does_nothing_and_says_so(people, committed):
    play(people, committed, 6)
    user = next(u for u in people if mails_to(u))
    old_link = link_to(user)
    assert one_click(old_link).status_code == 200
    services.set_email_choice(user, Preference.Email.EACH)  # the player turns it back on

    answer = one_click(old_link)

    assert answer.status_code == 410 and SPENT in answer.content.decode()
    assert services.email_choice(user) == Preference.Email.EACH
    # The next e-mail carries a link that works, once.
    sent = len(mails_to(user))
    play(people, committed, 6, seed=13)
    assert len(mails_to(user)) > sent
    new_link = link_to(user)
    assert new_link != old_link
    assert one_click(new_link).status_code == 200
    assert services.email_choice(user) == Preference.Email.NONE


@pytest.mark.parametrize("chosen", [Preference.Email.DIGEST, Preference.Email.EACH])
def test_a_link_sent_before_the_player_chose_again_is_refused(people, committed, chosen):
    """Even a link never used: the player's own choice since is what stands."""
    play(people, committed, 6)
    user = next(u for u in people if mails_to(u))
    link = link_to(user)
    services.set_email_choice(user, chosen)

    for method in ("get", "post"):
        answer = getattr(Client(), method)(link)
        assert answer.status_code == 410 and SPENT in answer.content.decode()
    assert services.email_choice(user) == chosen


def test_a_token_with_another_version_is_refused_as_tampered(people):
    """The version is under the signature: changing it breaks the token."""
    ada = people[0]
    services.set_email_choice(ada, Preference.Email.NONE)
    old = tokens.unsubscribe_token(ada)  # version 1 (as if sent then)
    services.set_email_choice(ada, Preference.Email.EACH)  # version 2
    _, rest = old.split(":", 1)
    current = signing.b64_encode(json.dumps({"u": ada.pk, "v": 2}, separators=(",", ":")).encode())
    tampered = current.decode() + ":" + rest

    for token in (tampered, signing.dumps({"u": ada.pk, "v": 2}, salt="another.salt")):
        for method in ("get", "post"):
            page = getattr(Client(), method)(reverse("notifications:unsubscribe", args=[token]))
            assert page.status_code == 400
            assert "not valid or has expired; nothing was changed" in page.content.decode()
    assert services.email_choice(ada) == Preference.Email.EACH
    assert tokens.email_version(ada) == 2


def test_a_link_made_before_links_named_a_version_is_refused(people):
    ada = people[0]
    token = signing.dumps({"u": ada.pk}, salt=tokens.UNSUBSCRIBE_SALT)  # the old shape
    page = Client().post(reverse("notifications:unsubscribe", args=[token]))
    assert page.status_code == 400
    assert services.email_choice(ada) == Preference.Email.EACH


@pytest.mark.parametrize(
    "language, says",
    [
        ("fr", "Ce lien de désabonnement a déjà servi"),
        ("es", "Este enlace para darse de baja ya se usó"),
    ],
)
def test_the_spent_link_page_is_translated(people, language, says):
    ada = people[0]
    link = reverse("notifications:unsubscribe", args=[tokens.unsubscribe_token(ada)])
    services.set_email_choice(ada, Preference.Email.DIGEST)
    page = Client().get(link, HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 410 and says in page.content.decode()
