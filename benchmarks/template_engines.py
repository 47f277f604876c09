"""What a faster template engine would give a board: two of Ex Libris' partials drawn by Django's
template engine and by Jinja2, the same HTML from the same context.

    pip install jinja2   # not one of the site's dependencies: only this measure needs it
    python -m benchmarks.template_engines [--repeat 5]

Most of a push's CPU is Django's template engine (docs/performance.md). This draws a bookshelf's
grid (loops over cells, card tags: `exlibris/board.html#shelf_grid`) and a player's row (words and
plurals: `#player`), taken from random four-player games for three readers, with Django (the
template fetched once) and with the same markup written for Jinja2 (its `_`, `ngettext` and the
card tags as globals; Jinja2 escapes an apostrophe as `&#39;` where Django writes `&#x27;`, which
the comparison allows). Prints how many of each part are the same in English, French and
Spanish, and the microseconds a part takes in each engine (the best of `--repeat` runs).
"""

import argparse
import functools
import os
import random
import sys
import timeit

STACK = (
    "{% macro stack(cell, shelf) %}{% if cell.face %}{% if shelf.mine %}{{ card_tile(cell.face) }}"
    '{% else %}{{ card_mini(cell.face) }}{% endif %}{% else %}<span class="xl-down">'
    '{% if cell.down and cell.down != "hidden" %}{{ card_tile(cell.down) }}'
    '<span class="xl-down-mark">{{ _("face down") }}</span>{% else %}{{ card_back() }}'
    '<span class="visually-hidden">{{ _("a face-down card") }}</span>{% endif %}</span>'
    '{% endif %}{% if cell.under %}<span class="xl-under">{% if cell.under == "hidden" %}'
    '<span class="visually-hidden">{{ _("and a card under it") }}</span>{% else %}'
    '{{ _("under:") }} {{ card(cell.under) }}{% endif %}</span>{% endif %}{% endmacro %}'
)
GRID = (
    '<div class="xl-shelf-scroll"><table class="xl-shelf">\n        <caption class="visually-'
    'hidden">{% if shelf.mine %}{{ _("Your bookshelf") }}{% else %}'
    '{{ _("%(name)s\'s bookshelf")|named(name=shelf.name) }}{% endif %}</caption>\n        '
    "{% for row in shelf.grid %}<tr>{% for cell in row %}<td{% if cell.buttons %} "
    'class="xl-legal{% if not cell.stack %} xl-empty{% endif %}" data-cell="{{ cell.key }}"'
    '{% elif not cell.stack %} class="xl-empty"{% elif cell.key in shelf.pre_flips %} '
    'class="xl-preflipped"{% endif %}>{% if cell.buttons|length == 1 %}'
    '{% set button = cell.buttons[0] %}<button type="submit" name="action" '
    'value=\'{{ button.value }}\' class="xl-cell-button" aria-label="{{ button.label }}">'
    '{% if cell.stack %}{{ stack(cell, shelf) }}{% else %}<span class="xl-cell-plus" '
    'aria-hidden="true">+</span>{% endif %}</button>{% else %}{% if cell.stack %}'
    '{{ stack(cell, shelf) }}{% endif %}{% if cell.buttons %}<span class="xl-cell-choices">'
    '{% for button in cell.buttons %}<button type="submit" name="action" '
    "value='{{ button.value }}' aria-label=\"{{ button.label }}\">{{ button.short }}</button>"
    "{% endfor %}</span>{% endif %}{% endif %}</td>{% endfor %}</tr>{% endfor %}\n      "
    "</table></div>"
)
ROW = (
    '<li class="player seat xl-seat xl-colour-{{ player.seat }}{% if player.is_me %} me{% endif %}'
    '{% if player.acting %} acting{% endif %}{% if player.bot %} is-bot{% endif %}" '
    'data-seat="{{ player.seat }}"><span class="seat-head"><span class="turn-mark" '
    'aria-hidden="true">{% if player.acting %}▶{% endif %}</span><span class="xl-pawn" '
    'aria-hidden="true"></span><span class="player-name">{{ player.name }}'
    '{% if player.is_me %} {{ _("(you)") }}{% endif %}</span></span>{% if player.first %} '
    '<span class="xl-first">{{ _("first player") }}</span>{% endif %} {% if player.taken_over %}'
    '<span class="seat-status bot-seat taken-over">'
    '{{ _("left: %(level)s bot plays")|named(level=player.bot) }}</span>{% elif player.bot %}'
    '<span class="seat-status bot-seat">{{ _("bot") }}</span>'
    '{% elif player.connected is not none %}<span class="presence {% if player.connected %}'
    'online{% else %}offline{% endif %}">{% if player.connected %}{{ _("connected") }}'
    '{% else %}{{ _("not connected") }}{% endif %}</span>{% endif %}\n      <span class="hand-'
    'size"><span class="mini-back" aria-hidden="true"></span><span class="hand-count" '
    'aria-hidden="true">{{ player.hand_size }}</span><span class="hand-size-text">'
    '{{ ngettext("%(counter)s card in hand", "%(counter)s cards in hand", player.hand_size)'
    '|named(counter=player.hand_size) }}</span></span>\n      <span class="xl-shelved">'
    '{{ ngettext("%(counter)s card shelved", "%(counter)s cards shelved", player.shelved)'
    "|named(counter=player.shelved) }}</span>\n      {% if player.library %}<span "
    'class="xl-library-name">{{ player.library }} · {{ player.assistant }}</span>{% endif %}\n'
    '      {% if player.doing %}<span class="doing">'
    '{{ _("now: %(doing)s")|named(doing=player.doing) }}</span>{% endif %}</li>'
)
NAMES = ["Ada", "Bertrand", "Clémence", "Dario"]


def micros(render, values: list[dict], repeat: int) -> float:
    """The microseconds `render` takes a part, the best of `repeat` runs over all of them."""
    best = min(timeit.repeat(lambda: [render(v) for v in values], number=10, repeat=repeat))
    return 1e6 * best / 10 / len(values)


def by_name(template, values: dict) -> str:
    return template.render(**values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    try:
        import jinja2
        from markupsafe import Markup, escape
    except ImportError:
        print("Jinja2 is not installed: pip install jinja2 (only this measure needs it)")
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "biblios_site.settings_test")
    import django

    django.setup()
    from types import SimpleNamespace

    from django.template.loader import get_template
    from django.utils import translation
    from django.utils.translation import gettext, ngettext

    from games.kinds.exlibris import engine, presenter
    from games.kinds.exlibris.templatetags import exlibris_board as tags

    def named(text, **values):
        """blocktranslate's way: the words as they are, the values escaped."""
        return Markup(text) % {name: escape(value) for name, value in values.items()}

    jinja = jinja2.Environment(autoescape=True)
    jinja.globals.update(
        _=gettext,
        ngettext=ngettext,
        card_tile=tags.card_tile,
        card_mini=tags.card_mini,
        card_back=tags.card_back,
        card=tags.card,
    )
    jinja.filters["named"] = named
    game = SimpleNamespace(pk=1, status="active", variant_name="Standard", variant="standard")
    contexts = []
    for seed in (3, 4):
        rng, state = random.Random(seed), engine.new_game(4, seed=seed)
        for move in range(280):
            seat = engine.to_act(state)[0]
            state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))
            if move % 40 == 0:
                for reader in (0, 2, None):
                    view = engine.view(state, reader)
                    contexts.append(presenter.view_context(game, view, NAMES, connected={0, 1}))
    parts = {
        "bookshelf grid": (
            get_template("exlibris/board.html#shelf_grid"),
            jinja.from_string(STACK + GRID),
            [{"shelf": shelf} for c in contexts for shelf in c["shelves"] if shelf["grid"]],
        ),
        "player row": (
            get_template("exlibris/board.html#player"),
            jinja.from_string(ROW),
            [{"player": player} for c in contexts for player in c["players"]],
        ),
    }
    for name, (django_part, jinja_part, values) in parts.items():
        for language in ("en", "fr", "es"):
            with translation.override(language):
                same = sum(
                    django_part.render(v).replace("&#x27;", "&#39;") == jinja_part.render(**v)
                    for v in values
                )
            print(f"{name}, {language}: {same} of {len(values)} the same")
        with translation.override("fr"):
            found = {
                "Django": micros(django_part.render, values, args.repeat),
                "Jinja2": micros(functools.partial(by_name, jinja_part), values, args.repeat),
            }
        print(
            f"{name}: Django {found['Django']:.1f} µs, Jinja2 {found['Jinja2']:.1f} µs "
            f"(×{found['Django'] / found['Jinja2']:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
