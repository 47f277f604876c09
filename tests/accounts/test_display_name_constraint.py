"""Display names are unique regardless of case, in the database itself."""

import pytest
from django.db import IntegrityError, transaction

pytestmark = pytest.mark.django_db


def test_racing_sign_ups_cannot_share_a_display_name(django_user_model):
    django_user_model.objects.create_user("first", password="x", display_name="Brother Cadfael")
    with pytest.raises(IntegrityError), transaction.atomic():
        django_user_model.objects.create_user(
            "second", password="x", display_name="brother CADFAEL"
        )


def test_blank_display_names_do_not_collide(django_user_model):
    django_user_model.objects.create_user("first", password="x")
    django_user_model.objects.create_user("second", password="x")
    assert django_user_model.objects.filter(display_name="").count() == 2
