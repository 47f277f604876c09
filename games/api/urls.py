"""The games' JSON API: tables, boards, moves and records (docs/api.md).

Mounted under /api/ by the site's URLs, after the friends' and notifications' own (the last
route answers any other path under /api/ with a JSON 404)."""

from django.urls import path, re_path

from biblios_site import inputs  # noqa: F401 (registers the <id:…> path converter)
from games.api import record, views
from games.tournaments import services as tournament_services

urlpatterns = [
    path("tables", views.tables, name="tables"),
    path("tables/<id:game_id>/join", views.join_table, name="join"),
    path("tables/<id:game_id>/start", views.start_table, name="start"),
    path("tables/<id:game_id>/leave", views.leave_table, name="leave"),
    path("tables/<id:game_id>/invite", views.invite_friend, name="invite"),
    path("games/your-turn", views.your_turn, name="your_turn"),
    path("daily", views.daily_deals, name="daily"),
    path("daily/<str:kind>", views.play_daily_deal, name="daily_play"),
    path("tournaments", views.tournaments, name="tournaments"),
    path("tournaments/<id:tournament_id>", views.tournament, name="tournament"),
    *(
        path(
            f"tournaments/<id:tournament_id>/{action}",
            views.tournament_action,
            {"action": action},
            name=f"tournament_{action.replace('-', '_')}",
        )
        for action in tournament_services.PLAYER_ACTIONS
    ),
    path("games/<id:game_id>", views.game_board, name="game"),
    path("games/<id:game_id>/actions", views.game_actions, name="actions"),
    path("games/<id:game_id>/leave", views.leave_game, name="leave_game"),
    path("games/<id:game_id>/take-back", views.take_seat_back, name="take_back"),
    path("games/<id:game_id>/orders", views.game_orders, name="orders"),
    path("games/<id:game_id>/record", record.game_record, name="record"),
    path("games/<id:game_id>/analysis", views.game_analysis, name="analysis"),
    # Anything else under /api/ is a JSON 404 rather than Django's HTML page.
    re_path(r"^(?P<rest>.*)$", views.unknown_endpoint),
]
