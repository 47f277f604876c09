"""Ex Libris' names of categories, locations, libraries, assistants, solo difficulties and
variants, in the reader's language.

The engine knows ids only; pages, pushes and logs name things here, at the edge, in the active
language (`get_language()`). English and French come from the data tables
(`games/kinds/exlibris/engine/data/*.json`; the French are the printed ones). Ex Libris was not
published in Spanish, so the Spanish names below are the project's own renderings (listed in
docs/exlibris.md, "Names in Spanish") rather than English words in a Spanish page.
"""

import re

from django.utils.text import format_lazy
from django.utils.translation import get_language, pgettext, pgettext_lazy

from games.kinds.exlibris.engine import setup
from games.kinds.exlibris.engine.cards import (
    CATEGORY_NAMES,
    LIBRARIES,
    LOCATION_BY_NUMBER,
    LOCATIONS,
)

SPANISH_CATEGORIES = {
    "corrupted_codices": "Códices corruptos",
    "fantastical_fiction": "Ficción fantástica",
    "historic_volumes": "Volúmenes históricos",
    "monster_manuals": "Bestiarios monstruosos",
    "reference_texts": "Obras de consulta",
    "spells_and_potions": "Pociones y hechizos",
}

SPANISH_LOCATIONS = {
    "hut": "Choza del adivino",
    "swap": "Bolsa de intercambio",
    "auction": "Casa de subastas",
    "bindery": "Taller del encuadernador",
    "community": "Centro comunitario",
    "well": "Pozo de los deseos",
    "den": "Garito clandestino",
    "lodge": "Salón literario",
    "collector": "El coleccionista",
    "bookshop": "Librería del Buen Decir",
    "dump": "Vertedero municipal",
    "tavern": "Taberna de los amigos",
    "cabin": "Cabaña misteriosa",
    "flea": "Mercadillo",
    "guild": "Gremio de ayudantes",
    "tax": "Recaudador de impuestos",
    "yard_sale": "Gran liquidación",
    "shelfmasons": "Gremio de ebanistas",
}

SPANISH_LIBRARIES = {
    "goblin": "Grutas de la percepción",
    "automaton": "Relojería del saber",
    "mummy": "Pirámide de la prosa",
    "cube": "Mazmorra del pensamiento profundo",
    "sasquatch": "Bosque de los folios",
    "bookworm": "Madriguera de los libros",
    "ghost": "Ateneo encantado",
    "snowman": "Iglú de la información",
    "golem": "Scriptorium del desguace",
    "wizard": "Torre de los grimorios",
    "witch": "Choza de los calderos",
    "wisp": "Biblioteca volcánica",
}

SPANISH_ASSISTANTS = {
    "goblin": "Trasgo taimado",
    "automaton": "Autómata",
    "mummy": "Momia",
    "cube": "Cubo gelatinoso",
    "sasquatch": "Sasquatch",
    "bookworm": "Gusano de biblioteca",
    "ghost": "Fantasma",
    "snowman": "Muñeco de nieve",
    "golem": "Gólem de chatarra",
    "wizard": "Mago",
    "witch": "Bruja",
    "wisp": "Fuego fatuo",
}

# The article of each special assistant, for sentences that name one: French as the printed
# rules write them (« le Gobelin sournois », « la Momie », « l’Automate »), Spanish by our
# renderings' genders. A standard assistant is one of several alike: "an assistant".
ARTICLES = {
    "en": dict.fromkeys(LIBRARIES, "the"),
    "fr": {
        **dict.fromkeys(LIBRARIES, "le"),
        "automaton": "l’",
        "mummy": "la",
        "witch": "la",
    },
    "es": {**dict.fromkeys(LIBRARIES, "el"), "mummy": "la", "witch": "la"},
}
STANDARD_ARTICLES = {"en": "an", "fr": "un", "es": "un"}
# The standard assistant inside a sentence (the French rules capitalize it, a game term).
STANDARD_IN_A_SENTENCE = {"en": "assistant", "fr": "Assistant", "es": "ayudante"}
# Each article as it reads alone, after "to" (à, a) and after "of" (de): the contractions.
ARTICLE_FORMS = {
    "en": {
        "the": ("the ", "to the ", "of the "),
        "an": ("an ", "to an ", "of an "),
    },
    "fr": {
        "le": ("le ", "au ", "du "),
        "la": ("la ", "à la ", "de la "),
        "l’": ("l’", "à l’", "de l’"),
        "un": ("un ", "à un ", "d’un "),
    },
    "es": {
        "el": ("el ", "al ", "del "),
        "la": ("la ", "a la ", "de la "),
        "un": ("un ", "a un ", "de un "),
    },
}
# "Alice's Mummy" / "to Alice's Mummy": English puts the owner first, with no article.
ENGLISH_OWNED = ("{owner}'s {name}", "to {owner}'s {name}")

SPANISH_DIFFICULTIES = {
    1: "Iniciado",
    2: "Estudiante",
    3: "Profesor",
    4: "Erudito",
    5: "Sabio",
    6: "Mandarín",
    7: "Demiurgo",
}

# The variant parts (engine.VARIANT_PARTS) as printed: Mode Débutant, Mode Amical, Parties Longues.
VARIANT_PART_NAMES = {
    "beginner": pgettext_lazy("Ex Libris variant", "Beginner"),
    "friendly": pgettext_lazy("Ex Libris variant", "Friendly"),
    "long": pgettext_lazy("Ex Libris variant", "Long game"),
}
GAME_NAME = "Ex Libris"  # printed the same in every language


def current_language() -> str:
    """The active language without a region ("fr" for "fr-ca"); English when none is active."""
    return (get_language() or "en").split("-")[0]


def _pick(english: str, french: str, spanish: str) -> str:
    return {"fr": french, "es": spanish}.get(current_language(), english)


def category(category_id: str) -> str:
    """A book category (X2), as printed on the scoring form."""
    printed = CATEGORY_NAMES[category_id]
    return _pick(printed["en"], printed["fr"], SPANISH_CATEGORIES[category_id])


def location(location_id: str) -> str:
    """A location tile (X4)."""
    tile = LOCATIONS[location_id]
    return _pick(tile.en, tile.fr, SPANISH_LOCATIONS[location_id])


def library(library_id: str) -> str:
    """A library tile (X5)."""
    row = LIBRARIES[library_id]
    return _pick(row.en, row.fr, SPANISH_LIBRARIES[library_id])


def assistant(library_id: str) -> str:
    """The special assistant of a library (its id is the library's)."""
    row = LIBRARIES[library_id]
    return _pick(row.assistant_en, row.assistant_fr, SPANISH_ASSISTANTS[library_id])


def standard_assistant() -> str:
    """What the engine calls a standard assistant ("standard-1", ...): the rulebook's plain
    Assistant, as opposed to a special one."""
    return pgettext("Ex Libris", "Assistant")


def assistant_name(assistant_id: str) -> str:
    """Any assistant id the engine uses: "standard-<n>" or a library id."""
    if assistant_id.startswith("standard-"):
        return standard_assistant()
    return assistant(assistant_id)


def assistant_forms(assistant_id: str, owner: str | None = None) -> dict[str, str]:
    """The ways a sentence names an assistant (any engine id), in the reader's language, by
    placeholder: `assistant` alone (after "your", or as a label), `the_assistant` ("the
    Mummy", « la Momie », « un Assistant »), `to_the_assistant` (« à la Momie », « al
    Trasgo »), `of_the_assistant` (« de l’Automate », « del Trasgo ») and, given its `owner`'s
    name, `owners_assistant` ("Alice's Mummy", « la Momie de Alice ») and
    `to_owners_assistant`. A translation only picks the form its sentence needs: it never
    writes an article for a name it does not see."""
    language = current_language()
    language = language if language in ARTICLE_FORMS else "en"
    if assistant_id.startswith("standard-"):
        name, article = STANDARD_IN_A_SENTENCE[language], STANDARD_ARTICLES[language]
    else:
        name, article = assistant(assistant_id), ARTICLES[language][assistant_id]
    the, to_the, of_the = (form + name for form in ARTICLE_FORMS[language][article])
    forms = {
        "assistant": name,
        "the_assistant": the,
        "to_the_assistant": to_the,
        "of_the_assistant": of_the,
    }
    if owner is not None:
        if language == "en":
            owned, to_owned = (f.format(owner=owner, name=name) for f in ENGLISH_OWNED)
        else:
            owned, to_owned = (f"{form} de {owner}" for form in (the, to_the))
        forms.update(owners_assistant=owned, to_owners_assistant=to_owned)
    return forms


# The forms above that open a French or Spanish sentence in lower case (« la Momie de Alice
# revient »): such a sentence gets its capital back (`capitalized`).
_OPENING_FORM = re.compile(r"%\((?:the|owners)_assistant\)s")


def capitalized(template: str, text: str) -> str:
    """`text`, made from the sentence `template`, with a capital first letter when the
    template opens on an assistant's article form."""
    if _OPENING_FORM.match(str(template)):
        return text[:1].upper() + text[1:]
    return text


def difficulty(level: int) -> str:
    """A solo difficulty (X85), 1 (Initiate) to 7 (Demiurge)."""
    printed = setup.SOLO_DIFFICULTIES[level]
    return _pick(printed["en"], printed["fr"], SPANISH_DIFFICULTIES[level])


def variant_name(slug: str):
    """A variant's name, lazily translated (the kind's entry is built at import). It carries the
    game's name, as Biblios' editions do, because the platform shows it alone (history and
    leaderboard filters, rating headings, a table's title): "Ex Libris", or
    "Ex Libris · Beginner + Long game"."""
    if slug == "standard":
        return GAME_NAME
    parts = slug.split("+")
    joined = " + ".join("{}" for _ in parts)
    return format_lazy(f"{GAME_NAME} · {joined}", *(VARIANT_PART_NAMES[p] for p in parts))


def rules_names(variant: str) -> dict:
    """What the rules page of `variant` names, in the reader's language: the tiles and libraries
    in play with their effects and powers, and what each variant changes."""
    # effects names things through this module, so it is imported when first needed.
    from games.kinds.exlibris import effects

    parts = set() if variant == "standard" else set(variant.split("+"))
    removed = {LOCATION_BY_NUMBER[n] for part in parts for n in setup.REMOVED_TILES.get(part, ())}
    friendly = "friendly" in parts
    return {
        "categories": [{"id": c, "name": category(c)} for c in CATEGORY_NAMES],
        "locations": [
            {
                "id": tile.id,
                "number": tile.number,
                "name": location(tile.id),
                "effect": effects.location_effect(tile.id),
                "delayed": tile.timing == "delayed",
                "solo": tile.solo,
                "cards": tile.setup_count,
                "face_down": tile.setup_face == "down",
                "bids": tile.bids,
                "slots": " / ".join(str(len(tile.slots(players))) for players in (2, 3, 4)),
            }
            for tile in LOCATIONS.values()
            if tile.id not in removed
        ],
        "location": {tile_id: location(tile_id) for tile_id in LOCATIONS},
        "libraries": [
            {
                "id": row.id,
                "name": library(row.id),
                "assistant": assistant(row.id),
                "power": effects.assistant_power(row.id),
                "solo": row.solo,
            }
            for row in LIBRARIES.values()
            if not (friendly and row.friendly_removed)
        ],
        "assistant": {library_id: assistant(library_id) for library_id in LIBRARIES},
        "difficulties": [
            {"level": level, "name": difficulty(level)} for level in setup.SOLO_DIFFICULTIES
        ],
        "removed_by": {
            part: [location(LOCATION_BY_NUMBER[n]) for n in numbers]
            for part, numbers in setup.REMOVED_TILES.items()
        },
        "friendly_libraries": [
            library(row.id) for row in LIBRARIES.values() if row.friendly_removed
        ],
        "end": " / ".join(
            str(threshold)
            for threshold in (
                setup.LONG_END_THRESHOLD if "long" in parts else setup.END_THRESHOLD
            ).values()
        ),
        "variant_part": {part: str(name) for part, name in VARIANT_PART_NAMES.items()},
        "beginner": "beginner" in parts,
        "friendly": friendly,
        "long": "long" in parts,
    }
