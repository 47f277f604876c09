"""The JSON board API, mounted under /api/ (docs/api.md)."""

from django.urls import path, re_path, register_converter

from games import api, api_record


class ObjectId:
    """A positive id that fits a 64-bit database column; longer numbers match no route."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(ObjectId, "api_id")

app_name = "api"

urlpatterns = [
    path("tables", api.tables, name="tables"),
    path("tables/<api_id:game_id>/join", api.join_table, name="join"),
    path("tables/<api_id:game_id>/start", api.start_table, name="start"),
    path("tables/<api_id:game_id>/leave", api.leave_table, name="leave"),
    path("games/<api_id:game_id>", api.game_board, name="game"),
    path("games/<api_id:game_id>/actions", api.game_actions, name="actions"),
    path("games/<api_id:game_id>/leave", api.leave_game, name="leave_game"),
    path("games/<api_id:game_id>/take-back", api.take_seat_back, name="take_back"),
    path("games/<api_id:game_id>/record", api_record.game_record, name="record"),
    # Anything else under /api/ is a JSON 404 rather than Django's HTML page.
    re_path(r"^(?P<rest>.*)$", api.unknown_endpoint),
]
