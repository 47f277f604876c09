"""Playing a lesson through its pages, as a visitor clicking its buttons would.

Each move is a form the page rendered: on a guided step, the first whose move the step teaches
(what its text tells the learner to press); otherwise the first on the board (the first button
a person sees), except at an auction, where the visitor bids the lowest bid on a category or
Church card they can pay for, and passes otherwise. The browser test clicks the same way.
"""

import re
from html import unescape

from django.http import QueryDict

from games.kinds import registry
from games.kinds.biblios.engine.cards import KIND, VALUE
from games.learn import lessons as learn
from tests.web.helpers import action_forms


def text_of(html: str) -> str:
    """A page's words, tags out and spaces folded: what a reader reads."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def query(data: dict) -> QueryDict:
    posted = QueryDict(mutable=True)
    for name, values in data.items():
        posted.setlist(name, values)
    return posted


def choose_form(kind: registry.GameKind, html: str, run: learn.Run):
    """The form the learner submits: the step's move, or the visitor's own (module doc)."""
    forms = [form for form in action_forms(html) if form.action == f"/learn/{kind.slug}/act/"]
    assert forms, "the lesson waits for the learner but shows no move"
    step = run.step()
    if step is None:
        return free_choice(forms, run.view())
    for form in forms:
        if learn.teaches(step, kind.parse_action(query(form.data()))):
            return form
    raise AssertionError(f"no form on the page makes the move step {step.say!r} teaches")


def play_through(client, kind: registry.GameKind, *, on_page=None, limit: int = 400):
    """Play the lesson of `kind` to its end through `client`'s pages; `on_page(html, run)` sees
    each page first. Returns the last page's HTML and the learner's moves."""
    html = client.get(f"/learn/{kind.slug}/").content.decode()
    moves: list[dict] = []
    for _ in range(limit):
        run = learn.play(kind, moves)
        if on_page:
            on_page(html, run)
        if run.over:
            return html, moves
        form = choose_form(kind, html, run)
        data = form.data()
        response = client.post(form.action, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        assert 'class="lesson-message"' not in html, text_of(html)[:300]
        moves.append(kind.parse_action(query(data)))
    raise AssertionError("the lesson did not end")


def free_choice(forms: list, view: dict):
    """The visitor's move when no step guides it (Biblios' auctions as the module doc says)."""
    auction, awaiting = view.get("auction"), view.get("awaiting")
    if not isinstance(awaiting, dict) or awaiting.get("step") != "bid":
        return forms[0]
    passing = next(form for form in forms if form.kind == "pass")
    bids = [form for form in forms if form.kind == "bid"]
    gold = sum(VALUE[card] for card in view["hand"] if KIND[card] == "gold")
    low = auction["high_bid"] + 1
    return bids[0] if bids and not auction["gold"] and low <= gold else passing
