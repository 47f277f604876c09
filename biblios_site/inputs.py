"""Reading what a request carries, the same strict way in every app: whole numbers from forms and
query strings, the page a form goes back to, and the path converters of the URL conf.

Python's `int()` is no parser for what a stranger sends: it refuses '²' (which `str.isdigit()`
passes) and numbers of over 4300 digits with a ValueError, and a number beyond a 64-bit column
makes the database raise. Each once answered 500; here they are simply not numbers. PostgreSQL
refuses NUL in text the same way, so no path parameter may hold one (form fields already refuse
it: Django's CharField has `ProhibitNullCharactersValidator`).
"""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.urls import register_converter
from django.utils.http import url_has_allowed_host_and_scheme

# The largest value a 64-bit integer column (every id here) holds.
MAX_ID = 2**63 - 1


def whole_number(raw, *, minimum: int = 0, maximum: int = MAX_ID) -> int | None:
    """`raw`, a form or query value, as a whole number from `minimum` to `maximum`, else None."""
    try:
        return forms.IntegerField(min_value=minimum, max_value=maximum).clean(raw)
    except ValidationError:
        return None


CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def page_to_return_to(request, default: str) -> str:
    """The form's `next`, when it is a page of this site, else `default`."""
    return same_site_path(request, request.POST.get("next", "")) or default


def same_site_path(request, value) -> str:
    """`value` if it is a path on this site, else "": never another site (an open redirect),
    and never a value a Location header cannot carry (a newline was a 500)."""
    if not isinstance(value, str) or not value.startswith("/") or CONTROL_CHARACTERS.search(value):
        return ""
    safe = url_has_allowed_host_and_scheme(
        value, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return value if safe else ""


class IdField(forms.IntegerField):
    """A form field for an object's id: a positive number that fits an id column."""

    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


class ObjectId:
    """An id in a path: up to 18 digits always fit a 64-bit column; longer numbers match no
    route (a 404), like letters do."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class Text:
    """A name or code in a path (a username, an invite code): one segment without NUL or other
    control characters, which no name holds and PostgreSQL refuses in a query."""

    regex = "[^/\\x00-\\x1f\\x7f]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


# Registered here, once, for every URL conf that imports this module.
register_converter(ObjectId, "id")
register_converter(Text, "text")
