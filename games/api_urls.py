"""The JSON board API, mounted under /api/ (docs/api.md)."""

from django.urls import path, re_path

from biblios_site import inputs  # noqa: F401 (registers the <id:…> path converter)
from games import api, api_record

app_name = "api"

urlpatterns = [
    path("tables", api.tables, name="tables"),
    path("tables/<id:game_id>/join", api.join_table, name="join"),
    path("tables/<id:game_id>/start", api.start_table, name="start"),
    path("tables/<id:game_id>/leave", api.leave_table, name="leave"),
    path("tables/<id:game_id>/invite", api.invite_friend, name="invite"),
    path("games/your-turn", api.your_turn, name="your_turn"),
    path("games/<id:game_id>", api.game_board, name="game"),
    path("games/<id:game_id>/actions", api.game_actions, name="actions"),
    path("games/<id:game_id>/leave", api.leave_game, name="leave_game"),
    path("games/<id:game_id>/take-back", api.take_seat_back, name="take_back"),
    path("games/<id:game_id>/record", api_record.game_record, name="record"),
    path("friends", api.friends, name="friends"),
    path("friends/<text:username>/<text:action>", api.friend_action, name="friend_action"),
    path("notifications", api.notifications, name="notifications"),
    path("notifications/read", api.notifications_read, name="notifications_read"),
    # Anything else under /api/ is a JSON 404 rather than Django's HTML page.
    re_path(r"^(?P<rest>.*)$", api.unknown_endpoint),
]
