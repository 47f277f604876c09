"""Friend requests, friendships and blocks through the service layer ("Friends":
send, accept, refuse and remove friend requests; blocking refuses their requests)."""

import pytest
from django.db import IntegrityError, transaction

from biblios_site import errors
from friends import selectors, services
from friends.models import Block, Friendship
from tests.at_once import at_once

pytestmark = pytest.mark.django_db


def rows():
    return sorted(
        Friendship.objects.values_list("sender__username", "receiver__username", "status")
    )


def test_a_request_accepted_makes_friends_both_ways(users):
    ada, basil, *_ = users
    services.send_request(ada, basil)
    assert selectors.relation(ada, basil) == selectors.SENT
    assert selectors.relation(basil, ada) == selectors.RECEIVED
    assert not selectors.are_friends(ada, basil)
    assert [row.sender for row in selectors.incoming_requests(basil)] == [ada]
    assert [row.receiver for row in selectors.outgoing_requests(ada)] == [basil]
    services.accept(basil, ada)
    assert selectors.are_friends(ada, basil) and selectors.are_friends(basil, ada)
    assert list(selectors.friends_of(ada)) == [basil] and list(selectors.friends_of(basil)) == [ada]
    assert selectors.relation(ada, basil) == selectors.relation(basil, ada) == selectors.FRIENDS
    assert not selectors.incoming_requests(basil).exists()


def test_asking_someone_who_asked_you_accepts_their_request(users):
    ada, basil, *_ = users
    services.send_request(ada, basil)
    row = services.send_request(basil, ada)
    assert row.status == Friendship.Status.ACCEPTED
    assert rows() == [("ada", "basil", "accepted")]


def test_refuse_cancel_and_remove_delete_the_pair_so_one_may_ask_again(users):
    ada, basil, clio, _ = users
    services.send_request(ada, basil)
    services.refuse(basil, ada)
    assert rows() == [] and selectors.relation(ada, basil) == selectors.NONE
    services.send_request(ada, basil)
    services.cancel(ada, basil)
    assert rows() == []
    services.send_request(clio, ada)
    services.accept(ada, clio)
    services.remove_friend(clio, ada)  # either friend may end it
    assert rows() == [] and not selectors.are_friends(ada, clio)
    services.send_request(ada, clio)
    assert rows() == [("ada", "clio", "pending")]


@pytest.mark.parametrize(
    ("setup", "call", "refusal", "message"),
    [
        ("none", lambda a, b: services.accept(b, a), errors.NotFound, "no such friend request"),
        ("none", lambda a, b: services.refuse(b, a), errors.NotFound, "no such friend request"),
        ("none", lambda a, b: services.cancel(a, b), errors.NotFound, "no such friend request"),
        ("none", lambda a, b: services.remove_friend(a, b), errors.NotFound, "not friends"),
        ("none", lambda a, b: services.unblock(a, b), errors.NotFound, "not blocked"),
        ("sent", lambda a, b: services.send_request(a, b), errors.Conflict, "asked already"),
        ("sent", lambda a, b: services.accept(a, b), errors.NotFound, "no such friend request"),
        ("sent", lambda a, b: services.cancel(b, a), errors.NotFound, "no such friend request"),
        ("sent", lambda a, b: services.remove_friend(a, b), errors.NotFound, "not friends"),
        ("friends", lambda a, b: services.send_request(b, a), errors.Conflict, "friends already"),
        ("friends", lambda a, b: services.accept(b, a), errors.NotFound, "no such friend"),
        ("blocked", lambda a, b: services.block(a, b), errors.Conflict, "blocked this player"),
        ("blocked", lambda a, b: services.send_request(a, b), errors.Conflict, "unblock them"),
        ("blocked", lambda a, b: services.send_request(b, a), errors.NotAllowed, "does not take"),
    ],
)
def test_wrong_transitions_are_refused_and_change_nothing(users, setup, call, refusal, message):
    ada, basil, *_ = users
    if setup in ("sent", "friends"):
        services.send_request(ada, basil)
    if setup == "friends":
        services.accept(basil, ada)
    if setup == "blocked":
        services.block(ada, basil)
    before = (rows(), sorted(Block.objects.values_list("blocker_id", "blocked_id")))
    with pytest.raises(refusal, match=message):
        call(ada, basil)
    assert (rows(), sorted(Block.objects.values_list("blocker_id", "blocked_id"))) == before


def test_oneself_anonymous_and_banned_players_are_refused(users):
    from django.contrib.auth.models import AnonymousUser

    ada, basil, *_ = users
    for call in (services.send_request, services.block):
        with pytest.raises(errors.ServiceError, match="that is you"):
            call(ada, ada)
    with pytest.raises(errors.NotAllowed, match="log in"):
        services.send_request(AnonymousUser(), basil)
    basil.is_active = False
    basil.save()
    with pytest.raises(errors.NotFound, match="no such player"):
        services.send_request(ada, basil)
    assert rows() == [] and not Block.objects.exists()


def test_the_database_holds_one_row_per_pair_and_none_for_oneself(users):
    """The constraints behind the services: a reversed duplicate, a self-friendship or a
    second block of the same player cannot be stored, whatever writes it."""
    ada, basil, *_ = users
    Friendship.objects.create(sender=ada, receiver=basil)
    for sender, receiver in ((basil, ada), (ada, basil), (ada, ada)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Friendship.objects.create(sender=sender, receiver=receiver)
    Block.objects.create(blocker=ada, blocked=basil)
    for blocker, blocked in ((ada, basil), (ada, ada)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Block.objects.create(blocker=blocker, blocked=blocked)
    assert Friendship.objects.count() == 1 and Block.objects.count() == 1


def test_blocking_ends_the_friendship_and_requests_and_unblocking_brings_none_back(users):
    ada, basil, clio, _ = users
    services.send_request(ada, basil)
    services.accept(basil, ada)
    services.send_request(clio, ada)
    services.block(ada, basil)
    services.block(ada, clio)
    assert rows() == []
    assert selectors.blocked(ada, basil) and selectors.blocked(basil, ada)  # either way
    assert selectors.has_blocked(ada, basil) and not selectors.has_blocked(basil, ada)
    assert (
        selectors.blocked_ids(ada) == {basil.pk, clio.pk} and selectors.blocked_ids(basil) == set()
    )
    assert selectors.relation(ada, basil) == selectors.BLOCKED
    assert selectors.relation(basil, ada) == selectors.NONE  # nothing tells basil
    with pytest.raises(errors.NotAllowed, match="does not take your friend requests"):
        services.send_request(basil, ada)
    services.unblock(ada, basil)
    assert not selectors.blocked(ada, basil) and not selectors.are_friends(ada, basil)
    services.send_request(basil, ada)
    assert rows() == [("basil", "ada", "pending")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(3))
def test_two_people_asking_each_other_at_once_end_friends_in_one_row(users, repeat):
    ada, basil, *_ = users
    at_once(lambda: services.send_request(ada, basil), lambda: services.send_request(basil, ada))
    assert Friendship.objects.count() == 1
    assert selectors.are_friends(ada, basil)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(3))
def test_the_same_request_sent_twice_at_once_is_stored_once(users, repeat):
    ada, basil, *_ = users
    outcomes = at_once(
        lambda: services.send_request(ada, basil), lambda: services.send_request(ada, basil)
    )
    assert rows() == [("ada", "basil", "pending")]
    refused = [outcome for outcome in outcomes if isinstance(outcome, errors.ServiceError)]
    assert len(refused) == 1 and isinstance(refused[0], errors.Conflict)
