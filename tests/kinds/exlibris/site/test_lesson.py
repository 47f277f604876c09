"""Ex Libris' guided game (games/kinds/exlibris/tutorial.py) played through its pages without an
account: every guided step is met and said in order, the moves it teaches are legal in the
engine (X86), a wrong move changes nothing, and the end and the scoring demo show the engine's
own inspection (X68–X76)."""

import json

import pytest
from django.test import Client
from django.utils import translation

from games.kinds import registry
from games.kinds.exlibris import engine, names, tutorial
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring
from games.kinds.exlibris.engine.cards import CATEGORIES
from games.learn import lessons as learn
from tests.learn.helpers import query, text_of
from tests.web.helpers import action_forms

pytestmark = pytest.mark.django_db

ACT = "/learn/exlibris/act/"


@pytest.fixture
def kind():
    return registry.get("exlibris")


def buttons(html: str) -> list[tuple[object, dict]]:
    """Every move button of the lesson's page: (its form, the action it posts). Ex Libris'
    forms hold many buttons (all placements, every cell), so each is looked at, not only the
    first as tests/learn/helpers.choose_form does."""
    found = []
    for form in action_forms(html):
        if form.action != ACT:
            continue
        for name, value in form.buttons:
            if name == "action":
                found.append((form, json.loads(value)))
    return found


def visitor_move(view: dict, offered: list[dict]) -> dict:
    """What the visitor presses where no step guides: a home action on the library, shelving
    when it may, a cell keeping alphabetical order (X69), Done at the flip; else the first."""
    kind = view["pending"]["kind"]

    def find(**fields):
        return next((a for a in offered if all(a.get(k) == v for k, v in fields.items())), None)

    if kind == "place":
        return find(target="library") or offered[0]
    if kind == "home":
        return find(type="shelve") or find(type="draw") or offered[0]
    if kind == "shelve_card":
        return find(type="shelve") or offered[0]
    if kind == "shelve_cell":
        good = tutorial.ordered_cells(view)
        return next((a for a in offered if tuple(a.get("cell", ())) in good), offered[0])
    if kind in ("bookworm", "flip"):
        return find(type="stop") or find(type="done") or offered[-1]
    return offered[0]


def play_through(client, kind, *, on_page=None, limit: int = 300):
    """The lesson played to its end through `client`'s pages, pressing only buttons they show:
    the step's move when a step guides, the visitor's own otherwise."""
    html = client.get("/learn/exlibris/").content.decode()
    moves: list[dict] = []
    for _ in range(limit):
        run = learn.play(kind, moves)
        if on_page:
            on_page(html, run)
        if run.over:
            return html, moves
        offered = buttons(html)
        assert offered, "the lesson waits for the learner but shows no move"
        actions = [action for _form, action in offered]
        step = run.step()
        if step is None:
            action = visitor_move(run.view(), actions)
        else:
            action = next((a for a in actions if learn.teaches(step, a)), None)
            assert action is not None, f"no button makes the move step {step.say!r} teaches"
        form = next(form for form, a in offered if a == action)
        data = form.data(action=json.dumps(action))
        response = client.post(ACT, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        assert 'class="lesson-message"' not in html, text_of(html)[:300]
        moves.append(kind.parse_action(query(data)))
    raise AssertionError("the lesson did not end")


def start_version(kind) -> int:
    """The board's version at the learner's first decision (the bot drafted before, X8)."""
    return learn.play(kind, []).view()["version"]


def test_the_deal_is_fixed_and_teaches_what_the_steps_say(kind):
    first = learn.play(kind, []).view()
    assert first == learn.play(kind, []).view()
    assert first["to_act"] == [tutorial.LEARNER]
    # X8: the bot drafted first; the Bookworm is the learner's to take.
    assert {"type": "take", "library": tutorial.LIBRARY} in first["legal_actions"]
    run = learn.play(kind, [{"type": "take", "library": tutorial.LIBRARY}])
    run = learn.play(kind, [*run.moves, run.view()["legal_actions"][0]])
    view = run.view()
    # X19: round 1's tile beside the Hut is the Bookshop, and the learner places first (X20).
    assert view["round"] == 1 and tutorial.FIRST_TILE in view["locations"]["face_up"]
    assert view["to_act"] == [tutorial.LEARNER]


def test_a_visitor_plays_the_guided_game_to_the_end(kind):
    """Every step's words appear when it is the learner's move, in order; the game ends with
    the inspection explained from the engine's own result."""
    client = Client()
    said = []

    def check(html, run):
        step = run.step()
        if step is not None:
            text = text_of(html)
            view = run.view()
            assert learn.step_words(kind.lesson, step.say, view) in text
            assert learn.step_words(kind.lesson, step.why, view) in text
            assert f"Step {len(run.done) + 1} of {len(kind.lesson.steps)}" in text
            said.append(kind.lesson.steps.index(step))
        elif not run.over:  # free play: the board's question and a tip
            assert kind.lesson.hint(run.view()) in text_of(html)

    html, moves = play_through(client, kind, on_page=check)
    assert said == list(range(len(kind.lesson.steps)))
    final = learn.play(kind, moves)
    assert final.over
    assert client.session["learn-exlibris"] == moves
    text = text_of(html)
    assert "The score, explained" in text
    for line in tutorial.ending(final.view()):
        assert line in text
    result = engine.result(final.state)
    totals = {p["seat"]: p["total"] for p in result["players"]}
    points = "point" if totals[0] == 1 else "points"
    assert f"You scored {totals[0]} {points}, the bot {totals[1]}." in text
    assert "Inspection" in text  # the board's own inspection form
    assert 'href="/learn/exlibris/scoring/"' in html
    assert 'href="/accounts/signup/"' in html
    assert f'action="{ACT}"' not in html


def test_the_lesson_is_a_plain_game_of_the_engine(kind):
    """The path the play-through takes, the bot's answers included, is a game the engine's own
    replay accepts and ends where the lesson ends (X86)."""
    _html, moves = play_through(Client(), kind)
    run = learn.play(kind, moves)
    replayed = engine.replay(tutorial.SETUP, run.history)
    assert engine.dumps(replayed) == engine.dumps(run.state)
    assert replayed["phase"] == "over"


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_steps_speak_the_readers_language(kind, language):
    """The first step names the library in the reader's language and gives the rules page's
    own sentence (exlibris/rules.html, X8) as translated there."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = text_of(client.get("/learn/exlibris/").content.decode())
    rules_page = text_of(client.get("/rules/exlibris/").content.decode())
    with translation.override(language):
        view = learn.play(kind, []).view()
        say = learn.step_words(kind.lesson, kind.lesson.steps[0].say, view)
        rule = str(tutorial.RULE_DRAFT)
        library = names.library(tutorial.LIBRARY)
    assert say in page and library in say
    assert rule in page and rule in rules_page


def test_a_legal_move_the_step_does_not_teach_is_nudged_and_changes_nothing(kind):
    client = Client()
    client.get("/learn/exlibris/")
    other = next(
        a for a in learn.play(kind, []).view()["legal_actions"] if a["library"] != "bookworm"
    )
    response = client.post(
        ACT, {"version": start_version(kind), "action": json.dumps(other)}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert "Not quite: that move is allowed" in text_of(html)
    assert "Take the Burrow of Books" in text_of(html)
    assert client.session.get("learn-exlibris", []) == []
    assert f'data-version="{learn.play(kind, []).view()["version"]}"' in html


def test_an_illegal_move_gets_the_engines_message_and_changes_nothing(kind):
    client = Client()
    client.get("/learn/exlibris/")
    wrong = {"type": "take", "library": "ghost"}  # X8: not in the pool
    response = client.post(
        ACT, {"version": start_version(kind), "action": json.dumps(wrong)}, HTTP_HX_REQUEST="true"
    )
    with pytest.raises(engine.IllegalAction) as refusal:
        engine.apply_action(learn.play(kind, []).state, 0, wrong)
    assert str(refusal.value) in text_of(response.content.decode())
    assert client.session.get("learn-exlibris", []) == []


def test_an_unreadable_move_gets_a_message(kind):
    client = Client()
    response = client.post(
        ACT, {"version": start_version(kind), "action": "{nope"}, HTTP_HX_REQUEST="true"
    )
    assert "could not be read" in text_of(response.content.decode())
    assert client.session.get("learn-exlibris", []) == []


def test_the_alphabetical_cells_are_the_engines(kind):
    """The cells step 11 names keep the order the engine's A1 check (X69) reads."""
    run = learn.play(kind, [])
    moves = []
    while run.step() is not kind.lesson.steps[10]:
        step = run.step()
        view = run.view()
        offered = view["legal_actions"]
        action = (
            next(a for a in offered if learn.teaches(step, a))
            if step
            else visitor_move(view, offered)
        )
        moves.append(action)
        run = learn.play(kind, moves)
    view = run.view()
    good = tutorial.ordered_cells(view)
    assert good
    shelf = view["seats"][0]["bookshelf"]
    card = view["pending"]["card"]
    before = len(scoring.alphabetical(shelf)[1])
    for action in view["legal_actions"]:
        cell = tuple(action["cell"])
        flipped = scoring.alphabetical(bs.shelve(shelf, card, cell))[1]
        assert (len(flipped) == before) == (cell in good)


# ----------------------------------------------------------------------------- scoring demo


def demo_result(down=None, prominent=None, banned=None):
    """The engine's result of the demo's end with Player A's pre-flips `down` (None: the
    game's own) and other categories."""
    final = tutorial.demo_state()
    pre_flips = [list(f) for f in final["pre_flips"]]
    if down is not None:
        pre_flips[0] = [list(cell) for cell in down]
    state = engine.State(
        {
            **final,
            "pre_flips": pre_flips,
            "prominent": prominent or final["prominent"],
            "banned": banned or final["banned"],
        }
    )
    return engine.result(state)


def test_the_demo_is_a_finished_game_of_the_engine():
    final = tutorial.demo_state()
    assert final["phase"] == "over" and not engine.to_act(final)


def demo_text(query_string: str = "") -> tuple[str, str]:
    response = Client().get(f"/learn/exlibris/scoring/{query_string}")
    assert response.status_code == 200
    html = response.content.decode()
    return html, text_of(html)


def assert_totals(text: str, result: dict) -> None:
    for sheet in result["inspection"]["players"]:
        name = ["Player A", "Player B"][sheet["seat"]]
        assert f"{name}: {sheet['total']} points, place {sheet['place']}" in text


def test_the_demo_shows_the_engines_inspection():
    html, text = demo_text()
    result = demo_result()
    assert_totals(text, result)
    sheet = result["inspection"]["players"][0]
    for cell in sheet["a1_flips"]:
        assert f'data-cell="{cell[0]},{cell[1]}" data-a1="1"' in html
    assert f'data-prominent="{result["inspection"]["prominent"]}"' in html


def test_turning_a_card_down_rescores_as_the_engine_does():
    """X68: a pre-flip link turns the card down and the totals follow the engine."""
    final = tutorial.demo_state()
    own = [tuple(cell) for cell in final["pre_flips"][0]]
    assert own  # the Greedy player turned cards down itself
    html, _text = demo_text()
    for cell in own:
        assert f'data-cell="{cell[0]},{cell[1]}" data-down="1"' in html
    # Turn up the game's first pre-flip, and turn down a card it left up.
    kept = own[1:]
    up = next(c for c in bs.face_up_cells(final["seats"][0]["bookshelf"]) if c not in own)
    for down in (kept, [*own, up]):
        written = "_".join(f"{r}.{c}" for r, c in down)
        link = f"?prominent={final['prominent']}&banned={final['banned']}&down={written}"
        assert link in html.replace("&amp;", "&")  # the page offers this very move
        html2, text = demo_text(link)
        for cell in down:
            assert f'data-cell="{cell[0]},{cell[1]}" data-down="1"' in html2
        assert_totals(text, demo_result(down=down))
    _html, text = demo_text("?down=")
    assert_totals(text, demo_result(down=[]))


def test_choosing_prominent_and_banned_rescores_as_the_engine_does():
    """X10, X72, X73: other categories, the engine's totals."""
    final = tutorial.demo_state()
    foci = {seat["focus"] for seat in final["seats"]}
    free = [c for c in CATEGORIES if c not in foci]
    for prominent, banned in [(free[0], free[1]), (free[2], free[3]), (free[3], free[0])]:
        _html, text = demo_text(f"?prominent={prominent}&banned={banned}")
        assert_totals(text, demo_result(prominent=prominent, banned=banned))


@pytest.mark.parametrize(
    "bad",
    ["down=9.9", "down=a.b", "down=0.0_0.0", "prominent=dragons", "banned=x", "prominent=&banned="],
)
def test_bad_demo_input_gets_a_message_not_an_error(bad):
    response = Client().get(f"/learn/exlibris/scoring/?{bad}")
    assert response.status_code == 200
    assert 'class="lesson-message"' in response.content.decode()


def test_the_ending_says_which_tie_break_decided():
    """X76: equal totals are decided by face-up books; the ending says so (the demo's end with
    Player A's first card also turned down and Corrupted Codices Prominent is such a game)."""
    final = tutorial.demo_state()
    own = [list(cell) for cell in final["pre_flips"][0]]
    first = bs.face_up_cells(final["seats"][0]["bookshelf"])[0]
    pre_flips = [[*own, list(first)], final["pre_flips"][1]]
    state = engine.State({**final, "pre_flips": pre_flips, "prominent": "corrupted_codices"})
    result = engine.result(state)
    sheets = result["inspection"]["players"]
    assert sheets[0]["total"] == sheets[1]["total"] and result["winners"] == [1]
    lines = tutorial.ending(engine.view(state, tutorial.LEARNER))
    assert "The bot wins this time." in lines
    assert "Equal totals: decided by more face-up books." in lines
