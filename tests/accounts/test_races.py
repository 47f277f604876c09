"""Accounts under concurrency: a sign-up that loses a race for a name gets the form's usual
error (not a 500), and the token cap holds when many tokens are created at once."""

import threading

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.forms import SignUpForm
from accounts.models import MAX_TOKENS_PER_USER, ApiToken, User

SIGNUP = reverse("accounts:signup")
FORM = {"password1": "a long enough passphrase", "password2": "a long enough passphrase"}


def together(count: int, call) -> list:
    """`call()` in `count` threads released at the same instant; their results or exceptions."""
    barrier = threading.Barrier(count)
    outcomes = [None] * count

    def run(i):
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as problem:  # noqa: BLE001 - the test inspects what each thread met
            outcomes[i] = problem
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mine", "theirs", "field", "error"),
    [
        (
            {"username": "ada", "display_name": "Ada"},
            {"username": "ada", "display_name": "Someone"},
            "username",
            "already exists",
        ),
        (
            {"username": "ada", "display_name": "Ada"},
            {"username": "other", "display_name": "ADA"},
            "display_name",
            "already uses this display name",
        ),
    ],
    ids=["username", "display-name"],
)
def test_a_sign_up_that_loses_the_race_for_a_name_gets_the_form_error(
    monkeypatch, mine, theirs, field, error
):
    """The other sign-up commits between this one's checks and its insert."""
    checked = SignUpForm.is_valid
    raced = []

    def is_valid_then_raced(form):
        valid = checked(form)
        if not raced:
            raced.append(User.objects.create_user(password="x", **theirs))
        return valid

    monkeypatch.setattr(SignUpForm, "is_valid", is_valid_then_raced)
    answer = Client().post(SIGNUP, {**FORM, **mine})
    assert answer.status_code == 200
    assert error in " ".join(answer.context["form"].errors[field])
    assert list(User.objects.values_list("username", flat=True)) == [theirs["username"]]
    assert "_auth_user_id" not in answer.client.session


@pytest.mark.django_db(transaction=True)
def test_concurrent_sign_ups_with_one_name_make_one_account_and_no_error():
    def sign_up():
        return Client().post(SIGNUP, {**FORM, "username": "ada", "display_name": "Ada"})

    outcomes = together(6, sign_up)
    statuses = sorted(getattr(outcome, "status_code", repr(outcome)) for outcome in outcomes)
    assert statuses == [200] * 5 + [302], statuses
    assert User.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_token_cap_holds_under_concurrent_creation():
    ada = User.objects.create_user("ada", password="x", display_name="Ada")
    ApiToken.objects.bulk_create(
        ApiToken(user=ada, key_hash=f"{n:064}", prefix=f"{n:08}")
        for n in range(MAX_TOKENS_PER_USER - 3)
    )

    def create():
        client = Client()
        client.force_login(ada)
        return client.post(reverse("accounts:tokens"), {"action": "create"}).status_code

    outcomes = together(8, create)
    assert sorted(outcomes) == [200] * 3 + [400] * 5, outcomes
    assert ApiToken.objects.filter(user=ada).count() == MAX_TOKENS_PER_USER


@pytest.mark.django_db
def test_the_command_line_keeps_to_the_same_token_cap():
    ada = User.objects.create_user("ada", password="x", display_name="Ada")
    for _ in range(MAX_TOKENS_PER_USER):
        ApiToken.issue(ada)
    with pytest.raises(CommandError, match="revoke one"):
        call_command("create_api_token", "ada")
    assert ApiToken.objects.filter(user=ada).count() == MAX_TOKENS_PER_USER
