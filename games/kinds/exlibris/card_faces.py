"""How an Ex Libris book card looks on the page, on the shared card shape (board.css): our own
category symbols (games/kinds/exlibris/static/exlibris/symbols.svg), never colour alone.

A card is its letter and ordinal (X3: "E-2") and one book icon per book, each a category. It
comes in two sizes: a chip (`card_chip`) inside a sentence, a log line or a button, and a card
(`card_tile`) for the hand, the tiles and the bookshelves. Both read aloud as "E 2 Historic
Volumes Monster Manuals": the books are labelled by the categories' names, written once per
board (`category_names`, hidden) and referred to by id, ~50 bytes less per card than the names
in each (a late board draws a hundred cards, against a 30 KB budget). Both keep the card id in
`data-card`, which the motion script keys on and the leak tests look for: a face is only drawn
for a card its reader may see. A face-down card is `card_back`: the same shape with no id and
nothing to learn from it.

A face depends only on the card id and the language, and a board draws a hundred (bookshelves
and log lines), so each is built once per process and language.
"""

from functools import cache

from django.core.signals import setting_changed
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.kinds.exlibris import names
from games.kinds.exlibris.engine.cards import CARDS


def card_name(card_id: str) -> str:
    """A card by its letter and ordinal only, "E 2": where its books are said around it (the
    discard pile's index by category)."""
    card = CARDS[card_id]
    return f"{card.letter} {card.ordinal}"


def card_label(card_id: str) -> str:
    """A card in words: "E 2: Historic Volumes, Monster Manuals"."""
    card = CARDS[card_id]
    books = ", ".join(names.category(category) for category in card.books)
    return f"{card.letter} {card.ordinal}: {books}"


def card_chip(card_id: str) -> str:
    return _face(card_id, get_language(), tile=False)


def card_tile(card_id: str) -> str:
    return _face(card_id, get_language(), tile=True)


def card_mini(card_id: str) -> str:
    """A card as `card_tile` draws it, for the other seats' (smaller) bookshelves, without the
    books' spoken names: those shelves say their books per category in words once, so each of
    their few dozen cards is ~50 bytes lighter and reads aloud as "E 2"."""
    return _face(card_id, get_language(), tile=True, spoken=False)


def card_back() -> str:
    """A face-down card: the card shape and the back pattern, never an id."""
    return mark_safe('<span class="card-back" aria-hidden="true"></span>')


# Short class names of the categories: a board draws a hundred cards and four times as many books.
CODES = {
    "corrupted_codices": "cc",
    "fantastical_fiction": "ff",
    "historic_volumes": "hv",
    "monster_manuals": "mm",
    "reference_texts": "rt",
    "spells_and_potions": "sp",
}


@cache
def _face(card_id: str, language: str | None, tile: bool, spoken: bool = True) -> str:
    """One card (`language` is the cache key: the categories' names are in it). The letter and
    ordinal read as they are; the books are an image named by their categories. As few bytes as
    the look allows (a board draws a hundred of them within its 30 KB): no class the style can
    do without, book symbols as bare `<i class=cc>`."""
    if card_id not in CARDS:  # never cached twice: the caller checks ids it got from a view
        return format_html('<span class="card xl-chip">{}</span>', card_id)
    card = CARDS[card_id]
    books = format_html_join("", "<i class={}></i>", ((CODES[c],) for c in card.books))
    return format_html(
        '<span class="card {size} k-{first}" data-card="{id}"><b>{letter}</b>'
        "<small>{ordinal}</small><span{label}>{books}</span></span>",
        size="card-tile xl-face" if tile else "xl-chip",
        first=CODES[card.books[0]],
        id=card_id,
        letter=card.letter,
        ordinal=card.ordinal,
        label=format_html(
            ' role="img" aria-labelledby="{}"', " ".join(f"xn-{CODES[c]}" for c in card.books)
        )
        if spoken
        else "",
        books=books,
    )


def category_names() -> str:
    """The categories' names, hidden, by the ids every card face's books refer to: once in any
    page or push that draws a card (the board, a past step, the whole log)."""
    return _category_names(get_language())


@cache
def _category_names(language: str | None) -> str:
    return format_html_join(
        "",
        '<span hidden id="xn-{}">{}</span>',
        ((CODES[category], names.category(category)) for category in CODES),
    )


def category_badge(category_id: str) -> str:
    """A category named with its symbol: for Prominent, Banned, focus and named categories."""
    return format_html(
        '<span class="xl-category k-{}"><i class="{}" aria-hidden="true"></i>{}</span>',
        CODES[category_id],
        CODES[category_id],
        names.category(category_id),
    )


def book_count(category_id: str, count: int) -> str:
    """How many face-up books of a category a bookshelf holds: the symbol, named by the
    board's hidden category names (`category_names`) as the cards' books are, and the number."""
    code = CODES[category_id]
    return format_html(
        '<span class="xl-book-count k-{}"><i class={} role=img aria-labelledby=xn-{}></i>{}</span>',
        code,
        code,
        code,
        count,
    )


def _forget_faces(*, setting: str, **_) -> None:
    """Faces hold translated words: tests that change the languages start afresh."""
    if setting in {"LANGUAGE_CODE", "LANGUAGES", "LOCALE_PATHS"}:
        _face.cache_clear()
        _category_names.cache_clear()


setting_changed.connect(_forget_faces)
