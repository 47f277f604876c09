"""Who may see, watch, play, chat at and read the record of a table (`games.access`).

First the rule itself, as a table of cases asserted against `games.access`; then the same
decisions through every door (page, log, chat, both sockets, the board API, the record API,
the replay page, and the lists: lobby, API tables, histories, profiles), so the doors cannot
drift apart again.
"""

import random

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import ApiToken
from biblios_site import errors
from friends import services as friends
from games import access
from games.models import Game
from games.play import services as play_services
from games.tables import selectors as tables_selectors
from games.tables import services as tables_services
from tests.api.conftest import ApiClient
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)
from tests.live.helpers import TIMEOUT, Sockets, run
from tests.play import play_to_end, started_game

# ------------------------------------------------------------------------- the rule itself

VISITORS = ("seated", "invited", "stranger", "anonymous", "staff", "banned", "friend")
PRIVACIES = ("public", "private", "friends")
STATUSES = ("waiting", "running", "finished")

# For each table and visitor: may_see, may_watch, may_play, may_chat, may_read_record, each for
# a waiting, a running and a finished game (Y/N), then may_join. "invited" holds the invite
# but has no seat; "banned" has a seat but a deactivated account; "staff" has neither seat nor
# invite; "friend" is a friend of the host, with neither. A "friends" table is public and for
# the host's friends only, where "seated" and "banned" sat down as friends and are friends no
# longer (their seat is what counts). (may_play and may_join are who may, whatever the status:
# that a game is not running or a table not open is the services' 409.)
RULE = """
public  spectators  seated     YYY YYY YYY YYY YYY Y
public  spectators  invited    YYY YYY NNN YYY YYY Y
public  spectators  stranger   YYY YYY NNN YYY YYY Y
public  spectators  anonymous  YYY YYY NNN NNN YYY N
public  spectators  staff      YYY YYY NNN YYY YYY Y
public  spectators  banned     YYY YYY NNN NNN YYY N
public  none        seated     YYY YYY YYY YYY YYY Y
public  none        invited    YNN NNN NNN NNN NNY Y
public  none        stranger   YNN NNN NNN NNN NNY Y
public  none        anonymous  YNN NNN NNN NNN NNY N
public  none        staff      YYY YYY NNN YYY YYY Y
public  none        banned     YNN NNN NNN NNN NNY N
public  spectators  friend     YYY YYY NNN YYY YYY Y
public  none        friend     YNN NNN NNN NNN NNY Y
private spectators  seated     YYY YYY YYY YYY YYY N
private spectators  invited    YYY YYY NNN YYY YYY Y
private spectators  stranger   NNN NNN NNN NNN NNN N
private spectators  anonymous  NNN NNN NNN NNN NNN N
private spectators  staff      YYY YYY NNN YYY YYY N
private spectators  banned     NNN NNN NNN NNN NNN N
private none        seated     YYY YYY YYY YYY YYY N
private none        invited    YNN NNN NNN NNN NNY Y
private none        stranger   NNN NNN NNN NNN NNN N
private none        anonymous  NNN NNN NNN NNN NNN N
private none        staff      YYY YYY NNN YYY YYY N
private none        banned     NNN NNN NNN NNN NNN N
private spectators  friend     NNN NNN NNN NNN NNN N
private none        friend     NNN NNN NNN NNN NNN N
friends spectators  seated     YYY YYY YYY YYY YYY N
friends spectators  invited    NNN NNN NNN NNN NNN N
friends spectators  stranger   NNN NNN NNN NNN NNN N
friends spectators  anonymous  NNN NNN NNN NNN NNN N
friends spectators  staff      YYY YYY NNN YYY YYY N
friends spectators  banned     NNN NNN NNN NNN NNN N
friends spectators  friend     YYY YYY NNN YYY YYY Y
friends none        seated     YYY YYY YYY YYY YYY N
friends none        invited    NNN NNN NNN NNN NNN N
friends none        stranger   NNN NNN NNN NNN NNN N
friends none        anonymous  NNN NNN NNN NNN NNN N
friends none        staff      YYY YYY NNN YYY YYY N
friends none        banned     NNN NNN NNN NNN NNN N
friends none        friend     YNN NNN NNN NNN NNY Y
"""

# The table settings of each privacy of the rule.
TABLES = {
    "public": {},
    "private": {"private": True},
    "friends": {"friends_only": True},
}


def rule_cases():
    for line in RULE.strip().splitlines():
        privacy, spectators, visitor, see, watch, play, chat, record, join = line.split()
        for index, status in enumerate(STATUSES):
            expected = {
                "see": see[index],
                "watch": watch[index],
                "play": play[index],
                "chat": chat[index],
                "record": record[index],
                "join": join,
            }
            yield pytest.param(
                privacy,
                spectators == "spectators",
                visitor,
                status,
                {name: flag == "Y" for name, flag in expected.items()},
                id=f"{privacy}-{spectators}-{visitor}-{status}",
            )


@pytest.fixture
def people(django_user_model):
    make = django_user_model.objects.create_user
    found = {
        "host": make("host", password="x"),
        "seated": make("seated", password="x"),
        "banned": make("banned", password="x"),
        "invited": make("invited", password="x"),
        "stranger": make("stranger", password="x"),
        "staff": make("moderator", password="x", is_staff=True),
        "friend": make("friend", password="x"),
    }
    befriend(found["host"], found["friend"])
    return found


def befriend(a, b) -> None:
    friends.send_request(a, b)
    friends.accept(b, a)


def table_at(people, status: str, *, played_out: bool = True, **table) -> Game:
    """A 3-seat table of host, seated and banned, waiting (full), running or finished.

    At a table for the host's friends only, seated and banned sit down as the host's friends
    and then stop being friends. `played_out=False` ends a running game by its status alone,
    for the rule's own cases (the rule reads the status, not the board) without a playout per
    case.
    """
    players = [people["host"], people["seated"], people["banned"]]
    people["banned"].is_active = True  # banned once seated (at each table a test lays)
    people["banned"].save(update_fields=["is_active"])
    if table.get("friends_only"):
        for player in players[1:]:
            befriend(players[0], player)
    if status == "waiting":
        game = tables_services.create_table(players[0], tables_services.TableSettings(3, **table))
        for player in players[1:]:
            tables_services.join_table(game.pk, player, invited=True)
    else:
        game = started_game(players, 3, seed=3, **table)
        if status == "finished" and played_out:
            game = play_to_end(game, random.Random(3))
        elif status == "finished":
            Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    if table.get("friends_only"):
        for player in players[1:]:
            friends.remove_friend(players[0], player)
    people["banned"].is_active = False
    people["banned"].save(update_fields=["is_active"])
    game.refresh_from_db()
    return game


@pytest.mark.django_db
@pytest.mark.parametrize("privacy, spectators, who, status, expected", list(rule_cases()))
def test_the_rule(people, privacy, spectators, who, status, expected):
    table = {**TABLES[privacy], "spectators_allowed": spectators}
    game = table_at(people, status, played_out=False, **table)
    user = AnonymousUser() if who == "anonymous" else people[who]
    visitor = access.Visitor.of(game, user, invited=who == "invited")
    decided = {
        "see": access.may_see(game, visitor),
        "watch": access.may_watch(game, visitor),
        "play": access.may_play(game, visitor),
        "chat": access.may_chat(game, visitor),
        "record": access.may_read_record(game, visitor),
        "join": access.may_join(game, visitor),
    }
    assert decided == expected
    # Every channel read is one the visitor may watch from; the first is where they post.
    channels = access.chat_channels(game, visitor)
    assert bool(channels) == expected["watch"]


def test_the_rule_table_covers_every_case():
    cases = list(rule_cases())
    assert len(cases) == len(PRIVACIES) * 2 * len(VISITORS) * len(STATUSES)
    assert len({case.id for case in cases}) == len(cases)


@pytest.mark.django_db
def test_chat_channels_keep_players_and_watchers_apart_until_the_end(people):
    def channels(game, who):
        return access.chat_channels(game, access.Visitor.of(game, people[who]))

    running = table_at(people, "running")
    assert channels(running, "seated") == ["players"]
    assert channels(running, "stranger") == ["spectators"]
    finished = table_at(people, "finished", played_out=False)
    assert channels(finished, "seated") == ["players", "spectators"]
    assert channels(finished, "stranger") == ["spectators", "players"]


@pytest.mark.django_db
def test_replay_perspectives(people):
    def replay_seats(game, user):
        return access.replay_seats(game, access.Visitor.of(game, user))

    running = table_at(people, "running")
    seat = running.seats.get(user=people["seated"]).position
    assert replay_seats(running, people["seated"]) is None  # not over yet
    assert replay_seats(running, people["stranger"]) is None
    staff_view = replay_seats(running, people["staff"])
    assert staff_view == access.ReplaySeats(own=None, others=(0, 1, 2))
    finished = table_at(people, "finished", played_out=False)
    assert replay_seats(finished, people["seated"]) == access.ReplaySeats(seat, ())
    assert replay_seats(finished, people["stranger"]) == access.ReplaySeats(None, ())
    assert replay_seats(finished, AnonymousUser()) == access.ReplaySeats(None, ())
    # A moderator seated at a running game plays it like everyone else.
    playing_moderator = started_game([people["staff"], people["stranger"]], 2, seed=4)
    assert replay_seats(playing_moderator, people["staff"]) is None
    moderator = access.Visitor.of(playing_moderator, people["staff"])
    assert not access.sees_other_seats(playing_moderator, moderator)


@pytest.mark.django_db
def test_the_invite_is_a_session_note_or_the_code(people):
    game = table_at(people, "running", private=True)
    session = {}
    assert not access.holds_invite(game, session=session)
    access.remember_invite(session, game)
    assert access.holds_invite(game, session=session)
    assert access.holds_invite(game, code=game.invite_code)
    for wrong in ("", game.invite_code[:-1], None, ["list"]):
        assert not access.holds_invite(game, code=wrong)


# ---------------------------------------------------------------------- through every door


class Person:
    """One person at every door: a browser (which may follow the invite link), an API token,
    and the invite code when they hold it."""

    def __init__(self, user, game: Game, *, invited: bool):
        self.user = user
        self.browser = Client()
        self.browser.force_login(user)
        self.invite = game.invite_code if invited else None
        if invited:
            self.browser.get(f"/join/{game.invite_code}/")  # started: no seat, a look
        _, self.token = ApiToken.issue(user, "tests")
        self.api = ApiClient(self.token, user)

    @property
    def cookie(self) -> bytes:
        name = settings.SESSION_COOKIE_NAME
        return f"{name}={self.browser.cookies[name].value}".encode()

    def query(self) -> str:
        return f"?invite={self.invite}" if self.invite else ""


def web_doors(game: Game, visitor: Person) -> dict:
    """status codes of the page, the log and a chat post (an htmx partial) by `visitor`."""
    chat = visitor.browser.post(
        f"/games/{game.pk}/chat/", {"text": "hello"}, headers={"HX-Request": "true"}
    )
    return {
        "page": visitor.browser.get(f"/games/{game.pk}/").status_code,
        "log": visitor.browser.get(f"/games/{game.pk}/log/").status_code,
        "chat": chat.status_code,
    }


def api_doors(game: Game, visitor: Person) -> dict:
    return {
        "api board": visitor.api.get(f"/api/games/{game.pk}{visitor.query()}").status_code,
        "api record": visitor.api.get(f"/api/games/{game.pk}/record{visitor.query()}").status_code,
    }


def socket_doors(game: Game, visitor: Person) -> dict:
    """Whether the page's socket and the JSON socket accept `visitor` (4403 if not)."""
    sockets = Sockets()
    found = {}

    async def knock(name, path, **options):
        socket = sockets.open(path, **options)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        output = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            assert output["code"] == 4403, output
            found[name] = 403
        else:
            found[name] = 200

    async def scenario():
        await knock("html socket", f"/ws/games/{game.pk}/", cookie=visitor.cookie)
        json_path = f"/ws/games/{game.pk}/?format=json&token={visitor.token}"
        if visitor.invite:
            json_path += f"&invite={visitor.invite}"
        await knock("json socket", json_path)
        await sockets.close_all()

    run(scenario)
    return found


DOOR_CASES = [
    # (table, visitor, admitted): one representative case per line of the rule.
    pytest.param({"private": True}, "invited", True, id="private-invited"),
    pytest.param({"private": True}, "stranger", False, id="private-stranger"),
    pytest.param({"private": True}, "staff", True, id="private-staff"),
    pytest.param({"spectators_allowed": False}, "stranger", False, id="no-spectators-stranger"),
    pytest.param({"spectators_allowed": False}, "staff", True, id="no-spectators-staff"),
    pytest.param(
        {"private": True, "spectators_allowed": False},
        "invited",
        False,
        id="private-no-spectators-invited",
    ),
    pytest.param({}, "stranger", True, id="public-stranger"),
    pytest.param({"private": True}, "seated", True, id="private-seated"),
    pytest.param({"friends_only": True}, "stranger", False, id="friends-stranger"),
    pytest.param({"friends_only": True}, "invited", False, id="friends-invited"),
    pytest.param({"friends_only": True}, "friend", True, id="friends-friend"),
    pytest.param({"friends_only": True}, "staff", True, id="friends-staff"),
    pytest.param({"friends_only": True}, "seated", True, id="friends-seated-no-longer-friend"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table, who, admitted", DOOR_CASES)
def test_every_door_agrees_with_the_rule_on_a_running_game(people, table, who, admitted):
    game = table_at(people, "running", **table)
    visitor = Person(people[who], game, invited=who == "invited")
    seen = access.Visitor.of(game, visitor.user, invited=who == "invited")
    assert access.may_see(game, seen) is admitted
    assert access.may_chat(game, seen) is admitted
    assert access.may_read_record(game, seen) is admitted
    doors = {**web_doors(game, visitor), **api_doors(game, visitor)}
    doors.update(socket_doors(game, visitor))
    assert doors == dict.fromkeys(doors, 200 if admitted else 403)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "table, who, admitted",
    [
        pytest.param({"private": True}, "invited", True, id="private-invited"),
        pytest.param({"private": True}, "stranger", False, id="private-stranger"),
        pytest.param({"spectators_allowed": False}, "stranger", True, id="no-spectators"),
        pytest.param({"friends_only": True}, "stranger", False, id="friends-stranger"),
        pytest.param({"friends_only": True}, "invited", False, id="friends-invited"),
        pytest.param({"friends_only": True}, "friend", True, id="friends-friend"),
        pytest.param({"friends_only": True}, "seated", True, id="friends-seated"),
    ],
)
def test_the_replay_and_the_record_agree_on_a_finished_game(people, table, who, admitted):
    game = table_at(people, "finished", **table)
    visitor = Person(people[who], game, invited=who == "invited")
    seen = access.Visitor.of(game, visitor.user, invited=who == "invited")
    assert access.may_read_record(game, seen) is admitted
    replay = visitor.browser.get(f"/games/{game.pk}/replay/?as=open")
    record = visitor.api.get(f"/api/games/{game.pk}/record{visitor.query()}")
    download = visitor.browser.get(f"/games/{game.pk}/record/")
    expected = 200 if admitted else 403
    statuses = (replay.status_code, record.status_code, download.status_code)
    assert statuses == (expected,) * 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "who, admitted", [("stranger", False), ("invited", False), ("friend", True)]
)
def test_the_waiting_room_of_a_friends_only_table_shows_to_the_hosts_friends_alone(
    people, who, admitted
):
    game = table_at(people, "waiting", friends_only=True)
    visitor = Person(people[who], game, invited=who == "invited")
    seen = access.Visitor.of(game, visitor.user, invited=who == "invited")
    assert access.may_see(game, seen) is admitted
    doors = {
        "page": visitor.browser.get(f"/games/{game.pk}/").status_code,
        "api board": visitor.api.get(f"/api/games/{game.pk}{visitor.query()}").status_code,
        **socket_doors(game, visitor),
    }
    assert doors == dict.fromkeys(doors, 200 if admitted else 403)


@pytest.mark.django_db
def test_a_friends_only_table_is_listed_to_the_hosts_friends_and_its_players_alone(people):
    """Every list (the lobby's games in progress, the API's tables, another player's profile
    and history) shows a friends-only game only where its page would show: never to a
    stranger, an invite or not, during the game or after; to the host's friends, and to its
    players even once they are friends no longer."""
    running = table_at(people, "running", friends_only=True)
    finished = table_at(people, "finished", played_out=False, friends_only=True)
    host = people["host"].username

    def listed(user) -> dict:
        browser = Client()
        if user is not None:
            browser.force_login(user)
        profile = browser.get(f"/accounts/u/{host}/").content.decode()
        history = browser.get(f"/players/{host}/games/").content.decode()
        in_progress = tables_selectors.lobby_tables(user or AnonymousUser())["games_in_progress"]
        found = {
            "profile, running": f"/games/{running.pk}/" in profile,
            "profile, finished": f"/games/{finished.pk}/" in profile,
            "history, finished": f"/games/{finished.pk}/" in history,
            "lobby, running": running.pk in [game.pk for game in in_progress],
        }
        if user is not None:
            _, token = ApiToken.issue(user, "tests")
            tables = ApiClient(token, user).get("/api/tables?status=active").data["tables"]
            found["api, running"] = running.pk in [table["id"] for table in tables]
        return found

    for who, shown in [
        ("friend", True),
        ("seated", True),
        ("stranger", False),
        ("invited", False),
        (None, False),
    ]:
        found = listed(people[who] if who else None)
        assert found == dict.fromkeys(found, shown), who


@pytest.mark.django_db
def test_an_invite_holder_watches_a_private_game_on_the_web_and_through_the_api_alike(
    people,
):
    """The web let an invite-link holder watch a private game while the API showed it only to
    its players: the invite code now opens the API's board and record too."""
    game = table_at(people, "running", private=True)
    watcher = people["invited"]
    browser = Client()
    browser.force_login(watcher)
    browser.get(f"/join/{game.invite_code}/")
    assert browser.get(f"/games/{game.pk}/").status_code == 200
    _, token = ApiToken.issue(watcher, "tests")
    api = ApiClient(token, watcher)
    board = api.get(f"/api/games/{game.pk}?invite={game.invite_code}")
    assert board.status_code == 200, board.data
    assert board.data["seat"] is None and board.data["view"]["hand"] is None
    assert api.get(f"/api/games/{game.pk}/record?invite={game.invite_code}").status_code == 200
    # Without the code, or with a wrong one, the API still refuses.
    assert api.get(f"/api/games/{game.pk}").status_code == 403
    assert api.get(f"/api/games/{game.pk}?invite=nope").status_code == 403


@pytest.mark.django_db
def test_an_invite_code_joins_a_private_table_through_the_api_body_or_query(people):
    game = tables_services.create_table(
        people["host"], tables_services.TableSettings(3, private=True)
    )
    joiner, other = people["invited"], people["stranger"]
    apis = {user: ApiClient(ApiToken.issue(user, "tests")[1], user) for user in (joiner, other)}
    assert apis[other].post(f"/api/tables/{game.pk}/join").status_code == 403
    assert (
        apis[joiner].post(f"/api/tables/{game.pk}/join?invite={game.invite_code}").status_code
        == 200
    )
    assert (
        apis[other]
        .post(f"/api/tables/{game.pk}/join", {"invite_code": game.invite_code})
        .status_code
        == 200
    )


@pytest.mark.django_db
def test_a_banned_player_can_no_longer_act_in_their_seat(people):
    """Every door already turns a deactivated account away (log-in, tokens, sockets); the
    service layer now refuses its moves too, so no door can forget to."""
    game = table_at(people, "running")
    banned = people["banned"]
    with pytest.raises(errors.NotAllowed):
        play_services.leave_game(game.pk, banned)
    assert not game.seats.get(user=banned).bot_level
