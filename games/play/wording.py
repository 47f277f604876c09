"""Punctuation that sentences built from pieces need in every language.

A label and its value ("Move 3: …", "Ada: 7 VP") take the reader's colon (French puts a space
before it), and the log lines of one move read as sentences one after the other: a line that
already ends a sentence keeps its own stop, so no ".;" or ".." appears where lines meet.
"""

import re

from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext

# What ends a sentence, seen past closing tags, quotes and spaces at the end of a line.
SENTENCE_END = re.compile(r"[.!?…](?:\s|</[^>]+>|[»”\"')])*$")


def colon() -> str:
    """The colon between a label and its value, as the reader's language writes it."""
    return pgettext("label colon", ":")


def labelled(label, value) -> str:
    """`label` and `value` joined by the reader's colon ("Move 3: …"), both escaped."""
    return mark_safe(f"{conditional_escape(label)}{colon()} {conditional_escape(value)}")


def as_sentence(line: str) -> str:
    """`line` (text or HTML) ending with a full stop unless it already ends a sentence."""
    line = line.strip()
    if not line or SENTENCE_END.search(line):
        return line
    return line + "."


def sentences(lines) -> str:
    """Log lines (HTML, already escaped) as one paragraph of sentences."""
    return mark_safe(" ".join(as_sentence(str(line)) for line in lines if str(line).strip()))
