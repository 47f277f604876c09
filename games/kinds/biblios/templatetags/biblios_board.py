"""Biblios' board helpers (`{% load biblios_board %}`): action forms that work with htmx and
without JavaScript, and log lines."""

from django import template
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from games.kinds.biblios.names import dice_list
from games.play import seat_notes
from games.play.board_forms import move_form_start

from .biblios_cards import card

register = template.Library()


@register.filter
def seat_name(names: list[str], seat) -> str:
    try:
        return names[seat]
    except (IndexError, TypeError):
        return gettext("somebody")


@register.simple_tag(takes_context=True)
def action_form(context, action_type: str, choices: bool = False):
    """The opening tag of an action form: posts with htmx, or as a plain form without JS.

    Carries the board version it was rendered at (a stale board is refused by the service) and
    the action type; the caller adds the action's own fields and closes the form. `choices`: a
    form of one submit button per choice, each sending its own value (`name="card"
    value="…"`), so the token, version and type come once: a form per choice, twenty cards to
    discard weighed some 8 KB of the page and of every push.
    """
    css = f"action action-{action_type}" + (" action-choices" if choices else "")
    return move_form_start(context, css, {"type": action_type})


@register.simple_tag(takes_context=True)
def log_line(context, event: dict):
    """One engine event (already filtered for this seat by `events_for`) in the reader's words.

    Rendered per reader and per request, in the active language: "you" and a player's name
    need different sentences in French and Spanish, so each line has both forms.
    """
    if (note := seat_notes.line(event, context["names"])) is not None:
        return note  # the platform's line, alike in every game
    line = LINES.get(event.get("type"))
    if line is None:
        return event.get("type", "")
    return line(_Event(event, context["names"], context["me"], context["game"].variant))


def _html(text: str, **values) -> str:
    """A translated sentence with its %(name)s placeholders filled, everything escaped."""
    escaped = {key: conditional_escape(value) for key, value in values.items()}
    return mark_safe(conditional_escape(text) % escaped)


class _Event:
    """An event with the reader's seat, so a line can say "you" to them."""

    def __init__(self, event: dict, names: list[str], me, edition: str):
        self.event, self.names, self.me, self.edition = event, names, me, edition

    def mine(self, key: str = "seat") -> bool:
        return self.event.get(key) is not None and self.event.get(key) == self.me

    def name(self, key: str = "seat") -> str:
        seat = self.event.get(key)
        return gettext("somebody") if seat is None else seat_name(self.names, seat)

    def card(self, hidden: str = "") -> str:
        """The event's card if this reader may see it, else the words for a hidden card."""
        card_id = self.event.get("card")
        return card(card_id, self.edition) if card_id else hidden or gettext("a card")

    def say(self, you: str, other: str, key: str = "seat", **values) -> str:
        """`you` when the reader is the player at `key`, else `other` with their name."""
        if self.mine(key):
            return _html(you, **values)
        return _html(other, player=self.name(key), **values)

    def move(self, chosen: tuple[str, str], timed_out: tuple[str, str], **values) -> str:
        """A player's own move, in the (you, other) words `chosen`; or, when their time ran out
        and the stand-in bot chose it (the platform marks those events `timed_out`), in the
        words `timed_out`, so nobody reads it as the player's own choice."""
        return self.say(*(timed_out if self.event.get("timed_out") else chosen), **values)


def _game_started(e: _Event):
    count = e.event["players"]
    you = ngettext(
        "The game began with %(count)s player; you start.",
        "The game began with %(count)s players; you start.",
        count,
    )
    other = ngettext(
        "The game began with %(count)s player; %(player)s starts.",
        "The game began with %(count)s players; %(player)s starts.",
        count,
    )
    return e.say(you, other, key="first_player", count=count)


def _placed(e: _Event):
    where = e.event["to"]
    if where == "self":
        chosen = (
            gettext("You placed %(card)s face down for yourself"),
            gettext("%(player)s placed %(card)s face down for themself"),
        )
        timed_out = (
            gettext("Time ran out: the bot placed %(card)s face down for you"),
            gettext("Time ran out for %(player)s: the bot placed %(card)s face down for them"),
        )
    elif where == "auction":
        chosen = (
            gettext("You placed %(card)s face down on the auction pile"),
            gettext("%(player)s placed %(card)s face down on the auction pile"),
        )
        timed_out = (
            gettext("Time ran out: the bot placed %(card)s face down on the auction pile for you"),
            gettext(
                "Time ran out for %(player)s: the bot placed %(card)s face down on the auction "
                "pile for them"
            ),
        )
    else:
        chosen = (
            gettext("You placed %(card)s face up in the public space"),
            gettext("%(player)s placed %(card)s face up in the public space"),
        )
        timed_out = (
            gettext("Time ran out: the bot placed %(card)s face up in the public space for you"),
            gettext(
                "Time ran out for %(player)s: the bot placed %(card)s face up in the public "
                "space for them"
            ),
        )
    return e.move(chosen, timed_out, card=e.card())


def _took_own_card(e: _Event):
    return e.say(
        gettext("You took %(card)s (placed face down) into your hand"),
        gettext("%(player)s took %(card)s (placed face down) into their hand"),
        card=e.card(hidden=gettext("their card")),
    )


def _church_used(e: _Event):
    return e.move(
        (
            gettext("You used %(card)s: %(dice)s %(delta)s"),
            gettext("%(player)s used %(card)s: %(dice)s %(delta)s"),
        ),
        (
            gettext("Time ran out: the bot used %(card)s for you: %(dice)s %(delta)s"),
            gettext(
                "Time ran out for %(player)s: the bot used %(card)s for them: %(dice)s %(delta)s"
            ),
        ),
        card=e.card(),
        dice=dice_list(e.event["dice"], e.edition),
        delta=f"{e.event['delta']:+d}",
    )


def _auction_phase(e: _Event):
    count = e.event["cards"]
    text = ngettext(
        "The auctions begin: %(count)s card in the auction pile",
        "The auctions begin: %(count)s cards in the auction pile",
        count,
    )
    return _html(text, count=count)


def _paid(e: _Event):
    paid = format_html_join(", ", "{}", ((card(c, e.edition),) for c in e.event["cards"]))
    return e.move(
        (
            gettext("You paid %(cards)s (%(amount)s Gold bid)"),
            gettext("%(player)s paid %(cards)s (%(amount)s Gold bid)"),
        ),
        (
            gettext("Time ran out: the bot paid %(cards)s for you (%(amount)s Gold bid)"),
            gettext(
                "Time ran out for %(player)s: the bot paid %(cards)s for them (%(amount)s Gold bid)"
            ),
        ),
        cards=paid,
        amount=e.event["amount"],
    )


def _penalty(e: _Event, you: str, yours: str, other: str):
    """A Medieval bluff penalty: `seat` takes or discards a card of `loser`'s hand."""
    values = {"card": e.card(), "loser": e.name("loser")}
    if e.mine("seat"):
        return _html(you, **values)
    if e.mine("loser"):
        return _html(yours, player=e.name(), **values)
    return _html(other, player=e.name(), **values)


LINES = {
    "game_started": _game_started,
    "drew": lambda e: e.say(
        gettext("You drew %(card)s"), gettext("%(player)s drew %(card)s"), card=e.card()
    ),
    "placed": _placed,
    "took_own_card": _took_own_card,
    "gift_turn": lambda e: e.say(
        gettext("You draw and give out cards next"),
        gettext("%(player)s draws and gives out cards next"),
    ),
    "picked": lambda e: e.move(
        (
            gettext("You took %(card)s from the public space"),
            gettext("%(player)s took %(card)s from the public space"),
        ),
        (
            gettext("Time ran out: the bot took %(card)s from the public space for you"),
            gettext(
                "Time ran out for %(player)s: the bot took %(card)s from the public space for them"
            ),
        ),
        card=e.card(),
    ),
    "church_acquired": lambda e: e.say(
        gettext("You acquired %(card)s"), gettext("%(player)s acquired %(card)s"), card=e.card()
    ),
    "church_used": _church_used,
    "church_unused": lambda e: e.move(
        (
            gettext("You discarded %(card)s without using it"),
            gettext("%(player)s discarded %(card)s without using it"),
        ),
        (
            gettext("Time ran out: the bot discarded %(card)s for you without using it"),
            gettext(
                "Time ran out for %(player)s: the bot discarded %(card)s for them without using it"
            ),
        ),
        card=e.card(),
    ),
    "auction_phase": _auction_phase,
    "auction_card": lambda e: e.say(
        gettext("You put %(card)s up for auction"),
        gettext("%(player)s put %(card)s up for auction"),
        card=e.card(),
    ),
    "bid": lambda e: e.move(
        (gettext("You bid %(amount)s"), gettext("%(player)s bid %(amount)s")),
        (
            gettext("Time ran out: the bot bid %(amount)s for you"),
            gettext("Time ran out for %(player)s: the bot bid %(amount)s for them"),
        ),
        amount=e.event["amount"],
    ),
    "passed": lambda e: e.move(
        (gettext("You passed"), gettext("%(player)s passed")),
        (
            gettext("Time ran out: the bot passed for you"),
            gettext("Time ran out for %(player)s: the bot passed for them"),
        ),
    ),
    "auction_won": lambda e: e.say(
        gettext("You won the auction with a bid of %(amount)s"),
        gettext("%(player)s won the auction with a bid of %(amount)s"),
        amount=e.event["amount"],
    ),
    "card_unsold": lambda e: _html(
        gettext("Nobody bought %(card)s; it leaves the game"), card=e.card()
    ),
    "paid": _paid,
    "gave": lambda e: e.move(
        (
            gettext("You discarded %(card)s face down"),
            gettext("%(player)s discarded %(card)s face down"),
        ),
        (
            gettext("Time ran out: the bot discarded %(card)s face down for you"),
            gettext("Time ran out for %(player)s: the bot discarded %(card)s face down for them"),
        ),
        card=e.card(),
    ),
    "card_bought": lambda e: e.say(
        gettext("You took %(card)s"), gettext("%(player)s took %(card)s"), card=e.card()
    ),
    "refused": lambda e: e.move(
        (gettext("You refused to pay %(amount)s"), gettext("%(player)s refused to pay %(amount)s")),
        (
            gettext("Time ran out: the bot refused to pay %(amount)s for you"),
            gettext("Time ran out for %(player)s: the bot refused to pay %(amount)s for them"),
        ),
        amount=e.event["amount"],
    ),
    "penalty_discard": lambda e: _penalty(
        e,
        gettext("You discarded %(card)s from %(loser)s's hand at random (Medieval bluff)"),
        gettext("%(player)s discarded %(card)s from your hand at random (Medieval bluff)"),
        gettext("%(player)s discarded %(card)s from %(loser)s's hand at random (Medieval bluff)"),
    ),
    "penalty_take": lambda e: _penalty(
        e,
        gettext("You took %(card)s from %(loser)s's hand as a penalty"),
        gettext("%(player)s took %(card)s from your hand as a penalty"),
        gettext("%(player)s took %(card)s from %(loser)s's hand as a penalty"),
    ),
    "game_over": lambda e: gettext("The game is over"),
}
