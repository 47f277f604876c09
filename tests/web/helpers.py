"""Helpers for the HTML tests: reading forms out of pages, and what a seat may know.

The full-game tests play only through forms the page actually renders, so they prove the
page offers every move a game needs; the leak checks compare each page against an
independent account of which cards a seat has ever been entitled to see.
"""

import re
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS
from games.models import Game

ALL_CARDS = frozenset(CARD_IDS)
CARD_ID = re.compile("|".join(re.escape(card) for card in sorted(CARD_IDS, key=len, reverse=True)))


@dataclass
class Form:
    action: str
    method: str
    attrs: dict
    fields: list = field(default_factory=list)  # (name, value) sent by every submission
    checkboxes: list = field(default_factory=list)  # (name, value, checked)
    numbers: list = field(default_factory=list)  # (name, value, min, max)
    buttons: list = field(default_factory=list)  # (name, value) of submit buttons

    def data(self, **overrides) -> dict:
        """What a browser submits: hidden and number fields, checked boxes, the button."""
        data: dict[str, list[str]] = {}
        for name, value in self.fields:
            data.setdefault(name, []).append(value)
        for name, value, _low, _high in self.numbers:
            data.setdefault(name, []).append(value)
        for name, value, checked in self.checkboxes:
            if checked:
                data.setdefault(name, []).append(value)
        for name, value in self.buttons[:1]:
            if name:
                data.setdefault(name, []).append(value)
        for name, value in overrides.items():
            data[name] = value if isinstance(value, list) else [str(value)]
        return data

    def choices(self) -> list["Form"]:
        """The form as each of its submit buttons sends it: itself when its buttons name no
        value of their own."""
        named = [button for button in self.buttons if button[0]]
        if len(named) < 2:
            return [self]
        return [replace(self, buttons=[button]) for button in named]

    @property
    def kind(self) -> str:
        return dict(self.fields).get("type", "")


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None

    def handle_starttag(self, tag, attrs):
        attrs = {name: (value if value is not None else "") for name, value in attrs}
        if tag == "form":
            self.current = Form(attrs.get("action", ""), attrs.get("method", "get"), attrs)
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input":
            kind, name = attrs.get("type", "text"), attrs.get("name")
            if not name:
                return
            if kind == "checkbox":
                self.current.checkboxes.append((name, attrs.get("value", "on"), "checked" in attrs))
            elif kind == "number":
                self.current.numbers.append(
                    (name, attrs.get("value", ""), int(attrs["min"]), int(attrs["max"]))
                )
            else:
                self.current.fields.append((name, attrs.get("value", "")))
        elif tag == "button" and attrs.get("type", "submit") == "submit":
            self.current.buttons.append((attrs.get("name"), attrs.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None


def forms_in(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    return parser.forms


def action_forms(html: str) -> list[Form]:
    """The board's action forms (they post to the game's act URL), one per submission the page
    offers: a form of several named buttons (one per choice) counts once per button."""
    return [
        choice
        for form in forms_in(html)
        if form.action.endswith("/act/")
        for choice in form.choices()
    ]


# ------------------------------------------------------------------------ who knows what


class Knowledge:
    """Every card each seat (and a spectator, None) has been entitled to see so far.

    Built from the raw engine state after every move, independently of `view`: a seat knows
    what has been in its hand, what it drew or placed face down, what it saw discarded face
    down, and everything shown face up; at the end every hand is shown (never the removed cards).
    """

    def __init__(self, num_players: int):
        self.known = {seat: set() for seat in [*range(num_players), None]}

    def update(self, state: biblios.State) -> None:
        public = set(state.public_space) | set(state.discard)
        if state.auction_card:
            public.add(state.auction_card)
        if state.church:
            public.add(state.church[0])
        if state.phase == "over":
            for hand in state.hands:
                public |= set(hand)
        for seat, known in self.known.items():
            known |= public
            if seat is None:
                continue
            known |= set(state.hands[seat])
            if state.active == seat:
                known |= {card for card in (state.drawing, state.self_card) if card}
            known |= {card for card, placer in state.placed_by.items() if placer == seat}
            known |= {card for card, knowers in state.hidden_discard if seat in knowers}

    def hidden(self, seat) -> set[str]:
        return set(ALL_CARDS - self.known[seat])


def card_ids_in(html: str) -> set[str]:
    return set(CARD_ID.findall(html))


def assert_no_leak(html: str, knowledge: Knowledge, seat, where: str) -> None:
    leaked = card_ids_in(html) & knowledge.hidden(seat)
    assert not leaked, f"{where} shows seat {seat} cards it may not know: {sorted(leaked)}"


def state_of(game: Game) -> biblios.State:
    game.refresh_from_db()
    return game.engine_state()


VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}


@dataclass
class Element:
    tag: str
    attrs: dict
    parent: "Element | None"
    children: list = field(default_factory=list)

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.node = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: (v if v is not None else "") for k, v in attrs}, self.node)
        self.node.children.append(element)
        if tag not in VOID_TAGS:
            self.node = element

    def handle_endtag(self, tag):
        node = self.node
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.node = node.parent


def parse_tree(html: str) -> Element:
    """A forgiving element tree (enough to check nesting and top-level fragments)."""
    builder = _TreeBuilder()
    builder.feed(html)
    return builder.root


def by_id(root: Element, element_id: str) -> list[Element]:
    return [node for node in root.walk() if node.attrs.get("id") == element_id]
