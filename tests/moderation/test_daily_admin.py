"""Moderators see every daily deal's results in the admin, read-only: only players' games
write them."""

import random

import pytest
from django.urls import reverse

from games.daily import services
from games.models import DailyDeal
from tests.daily.test_daily_deal import finish

pytestmark = pytest.mark.django_db


def test_the_admin_lists_each_deal_with_its_results_and_changes_none(users, admin_browser):
    finished = finish(services.play_daily(users[0], "biblios"), random.Random(5))
    services.play_daily(users[1], "biblios")  # still playing: not in the results
    deal = DailyDeal.objects.get(kind="biblios")
    listing = admin_browser.get(reverse("admin:games_dailydeal_changelist")).content.decode()
    assert f"/admin/games/dailydeal/{deal.pk}/change/" in listing
    page = admin_browser.get(reverse("admin:games_dailydeal_change", args=[deal.pk]))
    text = page.content.decode()
    assert f"/admin/games/game/{finished.pk}/change/" in text
    assert users[0].display_name in text and users[1].display_name not in text
    admin_browser.post(reverse("admin:games_dailydeal_change", args=[deal.pk]), {"seed": 1})
    assert DailyDeal.objects.get(pk=deal.pk).seed == deal.seed
