"""Pages of the games app: the lobby, tables, invites and the game board."""

from django.urls import path

from biblios_site import inputs  # noqa: F401 (registers the <text:…> path converter)
from games.analysis import views as analysis_views
from games.chat import views as chat_views
from games.daily import views as daily_views
from games.history import views as history_views
from games.learn import rules_views
from games.learn import views as learn_views
from games.play import views as play_views
from games.tables import views as tables_views
from games.tournaments import services as tournament_services
from games.tournaments import views as tournaments_views

urlpatterns = [
    path("", tables_views.lobby, name="home"),
    path("tables/new/", tables_views.create_table, name="table_create"),
    path("games/your-turn/", play_views.your_turn, name="your_turn"),
    path("games/<int:game_id>/", play_views.game_page, name="game"),
    path("games/<int:game_id>/act/", play_views.act, name="game_act"),
    path("games/<int:game_id>/log/", play_views.game_log, name="game_log"),
    path("games/<int:game_id>/join/", tables_views.join, name="game_join"),
    path("games/<int:game_id>/leave/", tables_views.leave, name="game_leave"),
    path("games/<int:game_id>/remove/", tables_views.remove_player, name="game_remove_player"),
    path("games/<int:game_id>/start/", tables_views.start, name="game_start"),
    path("games/<int:game_id>/invite/", tables_views.invite_friend, name="game_invite_friend"),
    path("games/<int:game_id>/rematch/", tables_views.rematch, name="game_rematch"),
    path("daily/", daily_views.daily, name="daily"),
    path("daily/<str:kind>/play/", daily_views.play, name="daily_play"),
    path("tournaments/", tournaments_views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", tournaments_views.tournament, name="tournament"),
    path("tournaments/<int:tournament_id>/live/", tournaments_views.live, name="tournament_live"),
    *(
        path(
            f"tournaments/<int:tournament_id>/{action}/",
            tournaments_views.act,
            {"action": action},
            name=f"tournament_{action.replace('-', '_')}",
        )
        for action in tournament_services.PLAYER_ACTIONS
    ),
    path("learn/", learn_views.index, name="learn"),
    path("learn/<str:kind>/", learn_views.lesson, name="learn_lesson"),
    path("learn/<str:kind>/act/", learn_views.act, name="learn_act"),
    path("learn/<str:kind>/restart/", learn_views.restart, name="learn_restart"),
    path("learn/<str:kind>/scoring/", learn_views.scoring, name="learn_scoring"),
    path("rules/", rules_views.rules, name="rules"),
    path("rules/<str:kind>/", rules_views.rules, name="rules"),
    path("rules/<str:kind>/<str:variant>/", rules_views.rules, name="rules"),
    path("games/<int:game_id>/leave-game/", play_views.leave_game, name="game_leave_game"),
    path("games/<int:game_id>/take-back/", play_views.take_seat_back, name="game_take_back"),
    path("games/<int:game_id>/orders/", play_views.standing_order, name="game_orders"),
    path("join/<text:invite_code>/", tables_views.invite, name="invite"),
    path("games/<int:game_id>/replay/", history_views.game_replay, name="game_replay"),
    path("games/<int:game_id>/record/", history_views.download_record, name="game_record"),
    path("games/<int:game_id>/review/", analysis_views.game_review, name="game_review"),
    path(
        "games/<int:game_id>/review/learn/",
        analysis_views.learn_from_mistakes,
        name="game_review_learn",
    ),
    path(
        "games/<int:game_id>/review/what-if/<int:move>/",
        analysis_views.what_if,
        name="game_review_what_if",
    ),
    path("games/<int:game_id>/chat/", chat_views.post, name="game_chat"),
    path("games/<int:game_id>/report/", chat_views.report, name="game_report"),
    path("history/", history_views.my_games, name="my_games"),
    path("players/<text:username>/games/", history_views.player_games, name="player_games"),
]
