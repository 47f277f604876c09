"""What each location does and each special assistant can, in a sentence or a few, in the
reader's language: the rules page lists them, and any page that explains a tile or a power may
reuse them.

Faithful to the spec's full rules (X35-X52, X54-X65) with its decisions, in players' words.
Other tiles and assistants are named through `names`, so that each language reads its own names.
"""

from django.utils.translation import gettext_lazy

from games.kinds.exlibris import names
from games.kinds.exlibris.engine.cards import LIBRARIES, LOCATIONS

LOCATION_EFFECTS = {
    "hut": gettext_lazy(
        "Draw 1 card for each of your assistants placed this round, this one included (an "
        "assistant placed twice counts once). Then take the first-player token: you will start "
        "the next round. The %(ghost)s may never come here."
    ),
    "swap": gettext_lazy(
        "If you hold a card and the tile holds one, you must exchange one of your hand cards "
        "for one of the tile's, both of your choice. The card you gave stays face up on the tile "
        "for later visitors. You may shelve the card you took."
    ),
    "auction": gettext_lazy(
        "Take a bid slot, 1 to 4, higher than the current bid (even your own); the outbid "
        "assistant goes back to its owner. Only one assistant is ever here. At Resolution, if "
        "cards lie here, the bidder must discard exactly as many hand cards as the bid, then "
        "takes every card here and may shelve any of them. A bidder with fewer hand cards than "
        "the bid pays nothing and gets nothing."
    ),
    "bindery": gettext_lazy(
        "Discard 1 or more cards from your hand and/or your bookshelf; then you may shelve 1 or "
        "2 cards from your hand. Without a discard, no shelving."
    ),
    "community": gettext_lazy(
        "Take 1 card of the tile; you may shelve it. Then, if cards remain, you must give one of "
        "them to an opponent of your choice; it goes to their hand."
    ),
    "well": gettext_lazy(
        "Discard any number of hand cards, none included, then draw that many plus 1; you may "
        "shelve 1 of the cards drawn."
    ),
    "den": gettext_lazy(
        "Every arrival here starts a contest. Starting with the arriving player and going "
        "clockwise, each player with an assistant here names a category (two may name the same). "
        "4 cards are revealed from the deck: the player whose category shows most books on them "
        "wins; a tie goes to the arriving player if tied, else to the tied player nearest "
        "clockwise. The winner takes every revealed card showing their category and may shelve "
        "as many of them as there are players with an assistant here; the other cards are "
        "discarded."
    ),
    "lodge": gettext_lazy(
        "In the order you like, you may do each of these once: bring one of your assistants "
        "already on another location to a free home space of your library and take 1 home "
        "action (the slot it leaves is free, and a delayed effect it awaited is lost); and either "
        "exchange a card of your bookshelf with a hand card, exchange two cards of your "
        "bookshelf, or take a card out of your bookshelf and shelve it again elsewhere."
    ),
    "collector": gettext_lazy(
        "One card lies face up here all round long: the wanted card. Discard any number of cards "
        "from your hand and/or your bookshelf, count the books on them whose category the wanted "
        "card shows, and draw half that many cards, rounded down. You may shelve up to 2 of them."
    ),
    "bookshop": gettext_lazy("Take 1 card of the tile; you may shelve it."),
    "dump": gettext_lazy(
        "At Resolution, once per assistant here, in slot order: name a category and search the "
        "discard pile; you may take 1 card holding a book of it, and shelve it."
    ),
    "tavern": gettext_lazy(
        "At Resolution, once for all the assistants here: 2 cards per assistant are revealed "
        "from the deck. Going through the occupied slots in order, again and again, each slot's "
        "owner takes 1 revealed card until none is left. Then each player may shelve any of the "
        "cards they took."
    ),
    "cabin": gettext_lazy(
        "4 cards lie face down here. Name a category, look at the face-down cards in secret and "
        "take any of those holding a book of it, showing them; the others stay face down. You "
        "may shelve 1 of the cards taken."
    ),
    "flea": gettext_lazy(
        "Take 1 card of the tile, or 2 if an assistant, even one of yours, was already here when "
        "yours arrived. You may shelve every card taken."
    ),
    "guild": gettext_lazy(
        "If one of your assistants is on a home space, move it onto a slot of a location where an "
        "opponent has an assistant: the opponents' assistants on that slot go back to their "
        "owners, and yours arrives as if placed. On an instant location the effect applies for "
        "you; on a delayed one your assistant takes over the slot (at the %(auction)s, with that "
        "slot's bid). This move ignores the %(snowman)s and the %(sasquatch)s, but never brings "
        "the %(ghost)s to the %(hut)s nor uses a slot reserved for more players."
    ),
    "tax": gettext_lazy(
        "Each opponent, starting on your left, must discard 1 card of their choice from their hand "
        "or bookshelf face up onto this tile. Then you may discard cards from your hand and/or "
        "your bookshelf, no more than lie on the tile, and take as many cards of your choice from "
        "the tile; you may shelve any of them."
    ),
    "yard_sale": gettext_lazy(
        "Reveal 1 or more cards of your hand. Going round from your left, again and again, each "
        "opponent takes 1 revealed card into their hand, shelves 1 straight into their bookshelf, "
        "or passes, until no revealed card is left or everyone passes in a row. Cards nobody "
        "claims stay in your hand. Then, for each card claimed, draw 2 cards and you may shelve 1 "
        "card from your hand."
    ),
    "shelfmasons": gettext_lazy(
        "You may move one card of your bookshelf, or several side by side in one row keeping "
        "their order, onto empty side-by-side cells of any one row. Your bookshelf must stay "
        "in one piece and no more than 3 rows tall."
    ),
}

ASSISTANT_POWERS = {
    "goblin": gettext_lazy(
        "When it arrives on a location where opponents have assistants, you may attempt a theft "
        "from each of them, one at a time, in the order you choose, stopping when you like: name "
        "a category; the opponent gives you a hand card of their choice holding a book of it or, "
        "having none, shows you their whole hand. Then you may shelve any of the cards received."
    ),
    "automaton": gettext_lazy(
        "When it arrives on a location or on your library, take 1 home action for each other "
        "assistant of yours already there. On your library, it then takes its own space's home "
        "action as well."
    ),
    "mummy": gettext_lazy(
        "When an effect it brings you shelves a card, you may put the card on a cell holding "
        "exactly one card: on top (the old card goes under) or underneath. The card underneath "
        "lies face down and is entombed: its books count for nothing, but it is worth 2 points at "
        "the inspection. A cell never holds more than 2 cards."
    ),
    "cube": gettext_lazy(
        "When an opponent's assistant arrives on its location, before any other power, that "
        "opponent chooses: give you a random card from their hand, or let you take both home "
        "actions. An opponent with an empty hand must let you take the home actions."
    ),
    "sasquatch": gettext_lazy(
        "It may only go where no opponent has an assistant (your own library is fine). When an "
        "opponent's assistant arrives on its location, you may take it back, to place it again "
        "on a later turn."
    ),
    "bookworm": gettext_lazy(
        "On your library, it gives both home actions instead of one; then you may discard 1 hand "
        "card to take both home actions once more. On a location it is an ordinary assistant."
    ),
    "ghost": gettext_lazy(
        "Never at the %(hut)s. Besides free slots, it may share an occupied slot of an instant "
        "location, whoever holds it, sending nobody home: you then draw 1 card and the location's "
        "effect applies for you. It may not share a slot of a delayed location, nor enter a "
        "location the %(snowman)s holds."
    ),
    "snowman": gettext_lazy(
        "While it is on an instant location, no other assistant may be placed there, not even "
        "yours (the %(guild)s still may). On a delayed location or on your library it has no "
        "power."
    ),
    "golem": gettext_lazy(
        "While it is on a location during Resolution: at every location resolved, up to and "
        "including its own, before the leftover cards are discarded, you may take 1 of them into "
        "your hand or shelve it."
    ),
    "wizard": gettext_lazy(
        "When an effect it brings you shelves a card, you may push instead: choose a card of your "
        "bookshelf and a direction; that card and the unbroken line of cards beyond it move one "
        "cell that way, and the new card takes the freed cell. The bookshelf must still be no "
        "more than 3 rows tall."
    ),
    "witch": gettext_lazy(
        "Each time an effect it brings you gives you a card holding a Banned book, reveal the "
        "top card of the deck: keep one of the two cards and discard the other."
    ),
    "wisp": gettext_lazy(
        "When it arrives on a location holding book cards, you may either discard 1 of them and "
        "take 1 home action or, if 2 or more lie there, discard them all and take 2 home actions."
    ),
}


def _named() -> dict[str, str]:
    """Every location and special assistant by id (the ids never clash): the names an effect
    may mention."""
    found = {tile: names.location(tile) for tile in LOCATIONS}
    found.update({library: names.assistant(library) for library in LIBRARIES})
    return found


def location_effect(location_id: str) -> str:
    """What a location does for the assistant that arrives there (or at Resolution)."""
    return str(LOCATION_EFFECTS[location_id]) % _named()


def assistant_power(library_id: str) -> str:
    """What a library's special assistant can do."""
    return str(ASSISTANT_POWERS[library_id]) % _named()
