"""Every word a template shows is marked for translation.

Each template is cut by Django's own lexer; everything that is not plain text (variables, tags,
translated strings) becomes a placeholder, and the remaining HTML is read with the standard
library's parser. Text nodes and the attributes people read (title, placeholder, aria-label,
alt, and the value of submit buttons) must then hold no word at all: a word there was written
in English without `{% translate %}` / `{% blocktranslate %}`.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.template.base import Lexer, TokenType

# Not words to translate: the site's and the game's own names.
ALLOWED = {"Biblios Online", "Biblios"}

# Stands for anything Django renders; a private-use character, so never mistaken for a word.
PLACEHOLDER = "\ue000"
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}
BUTTON_TYPES = {"submit", "button", "reset"}
WORD = re.compile(r"[^\W\d_]{2,}|\b[^\W\d_]\b")


def template_files() -> list[Path]:
    """Every template of the project (site templates and the project's own apps, game kinds
    included)."""
    roots = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]]
    roots += [
        Path(app.path) / "templates"
        for app in apps.get_app_configs()
        if Path(app.path).is_relative_to(settings.BASE_DIR)
        and not Path(app.path).is_relative_to(settings.BASE_DIR / ".venv")
    ]
    return sorted({file for root in roots for file in root.rglob("*.html")})


def html_without_django(source: str) -> str:
    """The template's HTML with every Django construct replaced by a placeholder.

    Text inside `{% blocktranslate %}` and `{% comment %}` blocks is dropped: the former is
    translated, the latter never shown.
    """
    out = []
    skip_until = None
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            command = token.contents.split()[0]
            if skip_until:
                if command == skip_until:
                    skip_until = None
                continue
            if command in ("blocktranslate", "blocktrans"):
                skip_until = "end" + command
            elif command == "comment":
                skip_until = "endcomment"
            out.append(PLACEHOLDER)
        elif token.token_type == TokenType.TEXT and not skip_until:
            out.append(token.contents)
        elif not skip_until:
            out.append(PLACEHOLDER)
    return "".join(out)


def words(text: str) -> str:
    """The readable words of a text, or "" when it is only symbols, numbers and placeholders."""
    text = " ".join(text.replace(PLACEHOLDER, " ").split())
    if not text or text in ALLOWED:
        return ""
    for name in sorted(ALLOWED, key=len, reverse=True):
        text = text.replace(name, " ")
    return text.strip() if WORD.search(text) else ""


class UnmarkedText(HTMLParser):
    """Collects visible text and read attributes that still hold words."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.raw_depth = 0  # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.raw_depth += 1
        attributes = dict(attrs)
        for name, value in attrs:
            readable = name in READ_ATTRIBUTES or (
                name == "value"
                and (tag == "button" or attributes.get("type", "").lower() in BUTTON_TYPES)
            )
            if readable and value and words(value):
                self.found.append(f'<{tag} {name}="{value.strip()}">')

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.raw_depth:
            self.raw_depth -= 1

    def handle_data(self, data):
        if not self.raw_depth and words(data):
            self.found.append(words(data))


def unmarked(source: str) -> list[str]:
    parser = UnmarkedText()
    parser.feed(html_without_django(source))
    parser.close()
    return parser.found


def test_the_scanner_finds_unmarked_text_and_attributes():
    """The scanner itself: English outside translation tags is caught, marked text is not."""
    source = """{% load i18n %}{% comment %}Notes for developers{% endcomment %}
    <h1>Game log</h1><p>{% translate "Lobby" %} · {{ count }} / 3</p>
    <button aria-label="Close the table">{% translate "Close" %}</button>
    <input type="submit" value="Confirm"><input type="hidden" name="x" value="raw">
    <img alt="{% translate 'Die' %}"><script>const word = "ignored";</script>
    {% blocktranslate count n=count %}{{ n }} card{% plural %}{{ n }} cards{% endblocktranslate %}
    <title>Biblios Online</title><p title="{{ x }} shows {{ y }}">—</p>"""
    assert unmarked(source) == [
        "Game log",
        '<button aria-label="Close the table">',
        '<input value="Confirm">',
        f'<p title="{PLACEHOLDER} shows {PLACEHOLDER}">',
    ]


def test_the_project_has_templates_to_scan():
    names = {path.name for path in template_files()}
    assert {"base.html", "board.html", "lobby.html", "profile.html"} <= names


@pytest.mark.parametrize(
    "path", template_files(), ids=lambda path: str(path.relative_to(settings.BASE_DIR))
)
def test_every_template_string_is_marked_for_translation(path):
    found = unmarked(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name}: text not marked for translation: {found}"
