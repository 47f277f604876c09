"""The friends' JSON API under /api/friends (docs/api.md): the lists, and a request answered."""

from django.http import JsonResponse

from accounts.api_protocol import api_view, checked_fields
from biblios_site import errors
from biblios_site.inputs import json_body
from friends import selectors as friendships
from friends import services as friend_services

FRIEND_ACTIONS = {
    "request": friend_services.send_request,
    "accept": friend_services.accept,
    "refuse": friend_services.refuse,
    "cancel": friend_services.cancel,
    "remove": friend_services.remove_friend,
    "block": friend_services.block,
    "unblock": friend_services.unblock,
}


def _player_json(user) -> dict:
    return {"username": user.username, "name": str(user)}


@api_view("GET")
def friends(request):
    """My friends, the requests waiting for my answer and for theirs, and whom I blocked."""
    me = request.user
    return JsonResponse(
        {
            "friends": [_player_json(friend) for friend in friendships.friends_of(me)],
            "incoming": [_player_json(row.sender) for row in friendships.incoming_requests(me)],
            "outgoing": [_player_json(row.receiver) for row in friendships.outgoing_requests(me)],
            "blocked": [_player_json(row.blocked) for row in friendships.blocked_users(me)],
        }
    )


@api_view("POST")
def friend_action(request, username: str, action: str):
    """One of FRIEND_ACTIONS on the player `username`; answers what they are to me now."""
    checked_fields(json_body(request, optional=True), {})
    if action not in FRIEND_ACTIONS:
        raise errors.NotFound(f"there is no API endpoint /api/friends/<username>/{action[:40]}")
    other = friendships.player_named(username)
    if other is None:
        raise errors.NotFound(f"there is no player {username[:40]!r}")
    FRIEND_ACTIONS[action](request.user, other)
    return JsonResponse(
        {**_player_json(other), "relation": friendships.relation(request.user, other)}
    )
