"""Ex Libris' board helpers (`{% load exlibris_board %}`): cards, categories, the move forms
(htmx and plain POST alike) and the game log's lines."""

from django import template
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from games.kinds.exlibris import card_faces, names
from games.kinds.exlibris.engine.cards import CATEGORIES, LIBRARIES, LOCATIONS
from games.play import seat_notes
from games.play.board_forms import move_form_start

register = template.Library()


@register.simple_tag
def card(card_id: str):
    """A card as a chip, for sentences and buttons (its id in `data-card`)."""
    return card_faces.card_chip(card_id)


@register.simple_tag
def card_tile(card_id: str):
    """A card drawn as a card (its id in `data-card`)."""
    return card_faces.card_tile(card_id)


@register.simple_tag
def card_mini(card_id: str):
    """A card on another seat's bookshelf (`card_faces.card_mini`)."""
    return card_faces.card_mini(card_id)


@register.simple_tag
def book_count(category_id: str, count: int):
    """A category's count of face-up books on a bookshelf, with its symbol."""
    return card_faces.book_count(category_id, count)


@register.simple_tag
def category_names():
    """The hidden names the card faces' books are labelled by (`card_faces.category_names`)."""
    return card_faces.category_names()


@register.simple_tag
def card_back():
    """A face-down card: no id."""
    return card_faces.card_back()


@register.simple_tag
def category(category_id):
    """A category with its symbol; nothing for None (a focus the reader may not see)."""
    return card_faces.category_badge(category_id) if category_id in CATEGORIES else ""


@register.filter
def location_name(tile_id: str) -> str:
    return _tile(tile_id)


@register.filter
def seat_name(names_by_seat: list[str], seat) -> str:
    try:
        return names_by_seat[seat]
    except (IndexError, TypeError):
        return gettext("somebody")


@register.simple_tag(takes_context=True)
def move_form(context, extra_class: str = ""):
    """The opening tag of a move form: posts with htmx (the board comes back in its place) or
    as a plain form without JavaScript. It carries the board's version, so a move made on a
    stale board is refused; its buttons carry the action (`name="action"`)."""
    return move_form_start(context, f"action {extra_class}")


# ------------------------------------------------------------------------------- the log


@register.simple_tag(takes_context=True)
def log_line(context, event: dict):
    """One engine event (already filtered for this reader by `events_for`) in their words."""
    if (note := seat_notes.line(event, context["names"])) is not None:
        return note  # the platform's line, alike in every game
    line = LINES.get(event.get("type"))
    reader = _Event(event, context["names"], context["me"], context.get("log_card_limit"))
    text = line(reader) if line else event.get("type", "")
    if event.get("timed_out"):
        return _html(gettext("Time ran out, the bot chose: %(line)s"), line=text)
    return text


def _html(text: str, **values) -> str:
    """A translated sentence with its %(name)s placeholders filled, everything escaped."""
    escaped = {key: conditional_escape(value) for key, value in values.items()}
    return mark_safe(names.capitalized(text, conditional_escape(text) % escaped))


def _tile(tile_id) -> str:
    return names.location(tile_id) if tile_id in LOCATIONS else gettext("a location")


class _Event:
    """An event with its reader, so a line can say "you" to them."""

    def __init__(self, event: dict, names_by_seat: list[str], me, card_limit: int | None = None):
        self.event, self.names, self.me = event, names_by_seat, me
        self.card_limit = card_limit

    def cards(self, card_ids) -> str:
        """Cards as chips; past `card_limit` (the board's log: a push stays under 30 KB, the
        whole log page shows every card) the rest as their number."""
        card_ids = list(card_ids or ())
        shown = card_ids if self.card_limit is None else card_ids[: self.card_limit]
        chips = format_html_join(" ", "{}", ((card_faces.card_chip(c),) for c in shown))
        if len(shown) == len(card_ids):
            return chips
        more = len(card_ids) - len(shown)
        return _html(
            ngettext("%(cards)s and %(count)s more", "%(cards)s and %(count)s more", more),
            cards=chips,
            count=more,
        )

    def get(self, key, default=None):
        return self.event.get(key, default)

    def mine(self, key: str = "seat") -> bool:
        return self.event.get(key) is not None and self.event.get(key) == self.me

    def name(self, key: str = "seat") -> str:
        return seat_name(self.names, self.event.get(key))

    def say(self, you: str, other: str, key: str = "seat", **values) -> str:
        """`you` when the reader is the player at `key`, else `other` with their name."""
        if self.mine(key):
            return _html(you, **values)
        return _html(other, player=self.name(key), **values)

    def assistant(self, assistant_id: str | None = None, owner: str = "seat") -> dict:
        """The ways to name the event's assistant (`assistant_id` when the event is about one
        library's), owned by the player at `owner` (`names.assistant_forms`)."""
        assistant_id = assistant_id or self.event.get("assistant", "standard-1")
        return names.assistant_forms(assistant_id, owner=self.name(owner))

    def card(self) -> str:
        """The event's card, or the secret card when the reader may see it; else words."""
        card_id = self.event.get("card") or (
            self.event["secret"] if isinstance(self.event.get("secret"), str) else None
        )
        return card_faces.card_chip(card_id) if card_id else gettext("a card")


def _draw(e: _Event) -> str:
    count = e.get("count", 0)
    if "secret" in e.event:
        drawn = e.cards(e.get("secret"))
        return e.say(
            gettext("You drew %(cards)s"),
            gettext("%(player)s drew %(cards)s"),
            cards=drawn,
        )
    return e.say(
        ngettext("You drew %(count)s card", "You drew %(count)s cards", count),
        ngettext("%(player)s drew %(count)s card", "%(player)s drew %(count)s cards", count),
        count=count,
    )


def _placed(e: _Event) -> str:
    if e.get("target") == "library":
        return e.say(
            gettext("You placed %(the_assistant)s on your library"),
            gettext("%(player)s placed %(the_assistant)s on their library"),
            **e.assistant(),
        )
    return e.say(
        gettext("You placed %(the_assistant)s at %(tile)s"),
        gettext("%(player)s placed %(the_assistant)s at %(tile)s"),
        tile=_tile(e.get("target")),
        **e.assistant(),
    )


def _discarded(e: _Event) -> str:
    cards = e.cards(e.get("cards")) if e.get("cards") else e.card()
    return e.say(
        gettext("You discarded %(cards)s"), gettext("%(player)s discarded %(cards)s"), cards=cards
    )


def _took(e: _Event) -> str:
    cards = e.cards(e.get("cards")) if e.get("cards") else e.card()
    return e.say(
        gettext("You took %(cards)s from %(tile)s"),
        gettext("%(player)s took %(cards)s from %(tile)s"),
        cards=cards,
        tile=_tile(e.get("tile")),
    )


def _shelved(e: _Event) -> str:
    """A card shelved (X14); where is left out: the engine's cells may be negative (X12), and
    the card is on the bookshelf for all to see."""
    if e.get("how") == "under":
        return e.say(
            gettext("You shelved %(card)s face down under another card"),
            gettext("%(player)s shelved a card face down under another card"),
            card=e.card(),
        )
    return e.say(
        gettext("You shelved %(card)s"), gettext("%(player)s shelved %(card)s"), card=e.card()
    )


def _gave(e: _Event) -> str:
    values = {"card": e.card(), "to": e.name("to")}
    if e.mine("to"):
        return _html(gettext("%(player)s gave you %(card)s"), player=e.name(), **values)
    return e.say(
        gettext("You gave %(card)s to %(to)s"),
        gettext("%(player)s gave %(card)s to %(to)s"),
        **values,
    )


def _named(e: _Event) -> str:
    category_name = names.category(e.get("category")) if e.get("category") in CATEGORIES else ""
    if e.get("victim") is not None:
        return e.say(
            gettext("Your %(assistant)s named %(category)s to %(victim)s"),
            gettext("%(owners_assistant)s named %(category)s to %(victim)s"),
            **e.assistant("goblin"),
            category=category_name,
            victim=e.name("victim"),
        )
    return e.say(
        gettext("You named %(category)s at %(tile)s"),
        gettext("%(player)s named %(category)s at %(tile)s"),
        category=category_name,
        tile=_tile(e.get("tile")),
    )


def _revealed(e: _Event) -> str:
    return e.say(
        gettext("You revealed %(cards)s"),
        gettext("%(player)s revealed %(cards)s"),
        cards=e.cards(e.get("cards")),
    )


def _contest(e: _Event) -> str:
    revealed = e.cards(e.get("revealed"))
    den = names.location("den")
    if e.get("winner") is None:
        return _html(gettext("%(tile)s: %(cards)s revealed, nobody wins"), tile=den, cards=revealed)
    return _html(
        gettext("%(tile)s: %(cards)s revealed, %(player)s wins %(won)s"),
        tile=den,
        cards=revealed,
        player=e.name("winner"),
        won=e.cards(e.get("won")),
    )


def _hand_shown(e: _Event) -> str:
    shown = e.cards(e.get("secret")) if "secret" in e.event else gettext("their hand")
    if e.mine("to"):
        return _html(
            gettext("%(player)s had no such card and showed you their hand: %(cards)s"),
            player=e.name(),
            cards=shown,
        )
    return e.say(
        gettext("You had no such card and showed %(to)s your hand"),
        gettext("%(player)s had no such card and showed %(to)s their hand"),
        to=e.name("to"),
    )


def _looked(e: _Event) -> str:
    if "secret" in e.event:
        return _html(
            gettext("You looked at the face-down cards: %(cards)s"), cards=e.cards(e.get("secret"))
        )
    return _html(gettext("%(player)s looked at the face-down cards"), player=e.name())


def _cube_card(e: _Event) -> str:
    card_text = e.card() if "secret" in e.event else gettext("a random card")
    return e.say(
        gettext("You gave %(card)s %(to_owners_assistant)s"),
        gettext("%(player)s gave %(card)s %(to_owners_assistant)s"),
        card=card_text,
        **e.assistant("cube", owner="owner"),
    )


def _game_over(e: _Event) -> str:
    return gettext("The game is over: the inspection")


LINES = {
    "round": lambda e: _html(gettext("Round %(round)s begins"), round=e.get("round")),
    "round_cap": lambda e: gettext("The round cap is reached: this is the last round"),
    "first_player": lambda e: e.say(
        gettext("You are the first player"), gettext("%(player)s is the first player")
    ),
    "library_taken": lambda e: e.say(
        gettext("You took %(library)s"),
        gettext("%(player)s took %(library)s"),
        library=names.library(e.get("library")) if e.get("library") in LIBRARIES else "",
    ),
    "library_removed": lambda e: e.say(
        gettext("You removed %(library)s from the game"),
        gettext("%(player)s removed %(library)s from the game"),
        library=names.library(e.get("library")) if e.get("library") in LIBRARIES else "",
    ),
    "tiles_revealed": lambda e: _html(
        gettext("New locations: %(tiles)s"), tiles=", ".join(_tile(t) for t in e.get("tiles", []))
    ),
    "tile_removed": lambda e: _html(gettext("%(tile)s leaves the game"), tile=_tile(e.get("tile"))),
    "tile_cleared": lambda e: _html(
        gettext("%(tile)s: %(cards)s discarded"),
        tile=_tile(e.get("tile")),
        cards=e.cards(e.get("cards")),
    ),
    "restoration": lambda e: _html(
        gettext("Restoration: %(tile)s joins the permanent row"), tile=_tile(e.get("permanent"))
    ),
    "deck_reshuffled": lambda e: gettext("The discard pile was shuffled into a new deck"),
    "location_deck_reshuffled": lambda e: gettext("The location deck was shuffled"),
    "hint_revealed": lambda e: _html(
        gettext("Hint: %(category)s is not the Public Library's focus"),
        category=names.category(e.get("category")) if e.get("category") in CATEGORIES else "",
    ),
    "solo_discard": lambda e: _html(
        gettext("The Public Library takes %(cards)s"), cards=e.cards(e.get("cards"))
    ),
    "end_triggered": lambda e: _html(
        gettext("The end is triggered by %(players)s: this round is the last"),
        players=", ".join(seat_name(e.names, s) for s in e.get("seats", [])),
    ),
    "set_aside": lambda e: e.say(
        gettext("Your assistants left in your supply are set aside"),
        gettext("%(player)s's assistants left in their supply are set aside"),
    ),
    "placed": _placed,
    "returned": lambda e: e.say(
        gettext("Your %(assistant)s came home from %(tile)s"),
        gettext("%(owners_assistant)s came home from %(tile)s"),
        tile=_tile(e.get("tile")),
        **e.assistant(),
    ),
    "moved_home": lambda e: e.say(
        gettext("You brought %(the_assistant)s home from %(tile)s"),
        gettext("%(player)s brought %(the_assistant)s home from %(tile)s"),
        tile=_tile(e.get("tile")),
        **e.assistant(),
    ),
    "guild_move": lambda e: e.say(
        gettext("You moved %(the_assistant)s with the %(tile)s"),
        gettext("%(player)s moved %(the_assistant)s with the %(tile)s"),
        tile=names.location("guild"),
        **e.assistant(),
    ),
    "draw": _draw,
    "home_nothing": lambda e: e.say(
        gettext("You took no home action"), gettext("%(player)s took no home action")
    ),
    "shelved": _shelved,
    "took": _took,
    "claimed_to_shelve": lambda e: e.say(
        gettext("You claimed %(card)s at the %(tile)s to shelve it"),
        gettext("%(player)s claimed %(card)s at the %(tile)s to shelve it"),
        card=e.card(),
        tile=names.location("yard_sale"),
    ),
    "discarded": _discarded,
    "paid": lambda e: e.say(
        gettext("You paid %(card)s to the %(tile)s"),
        gettext("%(player)s paid %(card)s to the %(tile)s"),
        card=e.card(),
        tile=names.location("tax"),
    ),
    "gave": _gave,
    "gave_to_tile": lambda e: e.say(
        gettext("You gave %(card)s to %(tile)s"),
        gettext("%(player)s gave %(card)s to %(tile)s"),
        card=e.card(),
        tile=_tile(e.get("tile")),
    ),
    "named": _named,
    "revealed": _revealed,
    "contest": _contest,
    "auction_unpaid": lambda e: e.say(
        gettext("You could not pay your bid of %(bid)s"),
        gettext("%(player)s could not pay their bid of %(bid)s"),
        bid=e.get("bid"),
    ),
    "collector_count": lambda e: e.say(
        gettext("You count %(books)s books at the %(tile)s"),
        gettext("%(player)s counts %(books)s books at the %(tile)s"),
        books=e.get("books"),
        tile=names.location("collector"),
    ),
    "cube_card": _cube_card,
    "cube_home_actions": lambda e: e.say(
        gettext("You let %(owners_assistant)s take both home actions"),
        gettext("%(player)s let %(owners_assistant)s take both home actions"),
        **e.assistant("cube", owner="owner"),
    ),
    "hand_shown": _hand_shown,
    "looked": _looked,
    "exchanged": lambda e: e.say(
        gettext("You exchanged %(took)s on your bookshelf for %(card)s"),
        gettext("%(player)s exchanged %(took)s on their bookshelf for %(card)s"),
        took=card_faces.card_chip(e.get("took")) if e.get("took") else gettext("a card"),
        card=e.card(),
    ),
    "swapped": lambda e: e.say(
        gettext("You swapped two cards of your bookshelf"),
        gettext("%(player)s swapped two cards of their bookshelf"),
    ),
    "reshelved": lambda e: e.say(
        gettext("You re-shelved a card of your bookshelf"),
        gettext("%(player)s re-shelved a card of their bookshelf"),
    ),
    "run_moved": lambda e: e.say(
        gettext("You moved a run of your bookshelf"),
        gettext("%(player)s moved a run of their bookshelf"),
    ),
    "witch_kept": lambda e: e.say(
        gettext("Your %(assistant)s kept a card and discarded %(card)s"),
        gettext("%(owners_assistant)s kept a card and discarded %(card)s"),
        **e.assistant("witch"),
        card=card_faces.card_chip(e.get("discarded")) if e.get("discarded") else gettext("a card"),
    ),
    "witch_nothing": lambda e: e.say(
        gettext("Your %(assistant)s found no card to reveal"),
        gettext("%(owners_assistant)s found no card to reveal"),
        **e.assistant("witch"),
    ),
    "flip_done": lambda e: e.say(
        gettext("You are done with the pre-scoring flip"),
        gettext("%(player)s is done with the pre-scoring flip"),
    ),
    "game_over": _game_over,
}
