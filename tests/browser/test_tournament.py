"""A Swiss tournament from the players' side: four people sign up and register on its page; in
the half hour before the start three of them check in with the page's button and the fourth
does not, so the start withdraws them; two rounds of 3-player tables follow, the second opened
as the first one's table ends, without bots (the tournament does not allow them, and three
players fill a table); then the final standings read on the page, the no-show marked.

The staff's scheduling and the clock's hands (moving the start into the check-in window, then
to now) are the site's own shell; the moves go through the JSON API, as a client plays them
(a game of three through clicks would take minutes): the page and its buttons are the test's.
"""

import json
import random
import time
import urllib.request

from tests.browser.conftest import ARTIFACTS, manage
from tests.browser.players import PHONE, SETTLED, Player, unique_tag, watched

SCHEDULE = """
import json
from datetime import timedelta
from django.utils import timezone
from accounts.models import ApiToken, User
from games.tournaments import services
staff = User.objects.create_user("staff{tag}", password="x", is_staff=True)
settings = services.TournamentSettings(
    name="Swiss {tag}", starts_at=timezone.now() + timedelta(hours=2), rounds=2, table_size=3,
    turn_seconds=60,
)
print(json.dumps(services.create_tournament(staff, settings).pk))
"""
MOVE_START = """
from datetime import timedelta
from django.utils import timezone
from games.models import Tournament
Tournament.objects.filter(pk={pk}).update(starts_at=timezone.now() + timedelta({delta}))
"""
TOKENS = """
import json
from accounts.models import ApiToken, User
print(json.dumps([ApiToken.issue(User.objects.get(username=name), "test")[1] for name in {names}]))
"""
GAME_DEADLINE_S = 60


def api(base: str, token: str, path: str, body=None) -> dict:
    request = urllib.request.Request(
        base + "/api" + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return json.loads(refused.read())


def play_game(base: str, tokens: list[str], game_id: int, rng: random.Random) -> None:
    """Play game `game_id` to its end, each seat's moves by its player: a quick legal move from
    their own view (mostly passing on bids), two requests a move."""
    by_seat = {api(base, token, f"/games/{game_id}")["seat"]: token for token in tokens}
    board = api(base, tokens[0], f"/games/{game_id}")
    deadline = time.monotonic() + GAME_DEADLINE_S
    while board["status"] == "active":
        assert time.monotonic() < deadline, board
        token = by_seat[board["view"]["to_act"][0]]
        board = api(base, token, f"/games/{game_id}")
        legal = board["view"].get("legal_actions") or []
        if board["status"] != "active" or not legal:
            continue
        passes = [action for action in legal if action["type"] == "pass"]
        paying = [action for action in legal if action["type"] != "refuse"]
        action = passes[0] if passes and rng.random() < 0.8 else rng.choice(paying or legal)
        answer = api(base, token, f"/games/{game_id}/actions",
                     {"version": board["version"], "action": action})  # fmt: skip
        if "view" in answer:
            board = {**answer, "view": answer["view"]}


def test_three_players_play_a_two_round_swiss_and_read_the_final_standings(
    browser, live_site, live_site_env
):
    tag = unique_tag()
    pk = json.loads(manage(live_site_env, "shell", "--no-imports", "-c", SCHEDULE.format(tag=tag)))
    url = f"{live_site}/tournaments/{pk}/"
    names = [f"swiss{tag}{letter}" for letter in "abcd"]
    viewports = [PHONE, None, None, None]
    people = [
        Player(browser, live_site, name, viewport=viewport or {"width": 1200, "height": 1000})
        for name, viewport in zip(names, viewports, strict=True)
    ]
    problems = []
    for person in people:
        person.sign_up()
        problems.append(watched(person))
        person.page.goto(url)
        person.page.click("#tournament-live form[action$='/register/'] [type=submit]")
        person.page.wait_for_selector("#tournament-live form[action$='/unregister/']")
    absent = people[3]
    people[0].page.reload()
    assert "4" in people[0].page.inner_text(".tournament-state")

    # The check-in window opens: three say they are here; the fourth does not.
    manage(live_site_env, "shell", "--no-imports", "-c",
           MOVE_START.format(pk=pk, delta="minutes=20"))  # fmt: skip
    for person in people[:3]:
        person.page.goto(url)
        person.page.click("#tournament-live form[action$='/check-in/'] [type=submit]")
        person.page.wait_for_selector(
            "#tournament-live form[action$='/check-in/']", state="detached"
        )
        person.page.wait_for_function(SETTLED)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    people[0].page.screenshot(
        path=str(ARTIFACTS / "tournament-checked-in-phone.png"), full_page=True
    )

    # The start: the clock withdraws the no-show and opens round 1.
    start_now = MOVE_START.format(pk=pk, delta="seconds=-1") + TOKENS.format(names=names[:3])
    tokens = json.loads(manage(live_site_env, "shell", "--no-imports", "-c", start_now))
    rng = random.Random(7)
    for number in (1, 2):
        deadline = time.monotonic() + 10
        while (
            len((detail := api(live_site, tokens[0], f"/tournaments/{pk}"))["rounds_played"])
            < number
        ):
            assert time.monotonic() < deadline, detail  # the round opens as the last one ends
            time.sleep(0.1)
        (table,) = detail["rounds_played"][number - 1]["tables"]
        play_game(live_site, tokens, table["game"], rng)
    deadline = time.monotonic() + 10
    while (detail := api(live_site, tokens[0], f"/tournaments/{pk}"))["status"] != "finished":
        assert time.monotonic() < deadline, detail
        time.sleep(0.1)
    rounds = detail["rounds_played"]
    assert [one["number"] for one in rounds] == [1, 2]
    for one in rounds:
        (table,) = one["tables"]
        # No bot: the tournament does not allow them, and three players fill a table of three.
        assert sorted(p["name"] for p in table["players"]) == sorted(
            p.display_name for p in people[:3]
        )
        assert not one["byes"]

    # The final standings, as the page shows them.
    page = people[1].page
    page.goto(url)
    standings = page.locator("table.tournament-standings tbody tr")
    assert standings.count() == 4
    rows = [standings.nth(i).inner_text() for i in range(4)]
    assert absent.display_name in rows[3] and "withdrawn" in rows[3]
    assert "Final standings" in page.inner_text("#tournament-live h2 >> nth=0")
    points = {}
    for one in rounds:
        for player in one["tables"][0]["players"]:
            points[player["name"]] = points.get(player["name"], 0) + 3 - player["place"]
    shown = [detail_row["points"] for detail_row in detail["standings"][:3]]
    assert shown == sorted(points.values(), reverse=True)
    assert page.locator("#tournament-live a[href*='/games/']").count() == 2
    page.screenshot(path=str(ARTIFACTS / "tournament-final-desktop.png"), full_page=True)
    people[0].page.goto(url)
    people[0].page.screenshot(path=str(ARTIFACTS / "tournament-final-phone.png"), full_page=True)
    assert not any(problems), problems
    for person in people:
        person.close()
