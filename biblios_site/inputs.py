"""Reading what a request carries, the same strict way in every app: whole numbers from forms and
query strings, the page a form goes back to, JSON objects (request bodies, socket frames, posted
fields), and the path converters of the URL conf.

Python's `int()` is no parser for what a stranger sends: it refuses '²' (which `str.isdigit()`
passes) and numbers of over 4300 digits with a ValueError, and a number beyond a 64-bit column
makes the database raise. Each once answered 500; here they are simply not numbers. PostgreSQL
refuses NUL in text the same way, so no path parameter may hold one (form fields already refuse
it: Django's CharField has `ProhibitNullCharactersValidator`).

Python's `json.loads` is no parser for a stranger's JSON either: nested some thousand levels deep
it raises RecursionError (a 500 at the push doors), it reads UTF-16 bytes as readily as UTF-8,
and it turns 1e999 into infinity and NaN into a float. `json_object` is the one reader of every
JSON door, with a size and a depth limit, and answers each of these with a BadRequest saying
what is wrong.
"""

import json
import math
import re

from django import forms
from django.core.exceptions import ValidationError
from django.urls import register_converter
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from biblios_site import errors

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


# What a JSON door takes unless it says otherwise: far more than any request of the site needs
# (a move, a table's settings, a list of notification ids, a push subscription).
MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 20


def json_object(
    raw: bytes | str, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH
) -> dict:
    """`raw` (UTF-8 bytes, or text) as a JSON object, else errors.BadRequest saying why: too
    large, not UTF-8, not JSON, a number no float holds (NaN, 1e999, thousands of digits),
    nested more than `max_depth` levels, or not an object."""
    if len(raw) > max_bytes or (
        isinstance(raw, str) and len(raw.encode("utf-8", "surrogatepass")) > max_bytes
    ):
        raise _too_large(max_bytes)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise errors.BadRequest(gettext("The request is not valid UTF-8 text.")) from None
    if not raw.strip():
        raise errors.BadRequest(gettext("The request must be a JSON object."))
    try:
        data = json.loads(raw, parse_constant=_no_number, parse_float=_finite)
    except RecursionError:  # deeper than Python's own limit
        raise _too_deep(max_depth) from None
    except json.JSONDecodeError as problem:
        raise errors.BadRequest(
            gettext("The request is not valid JSON (line %(line)d, column %(column)d).")
            % {"line": problem.lineno, "column": problem.colno}
        ) from None
    except ValueError:  # from the hooks, or int() past its 4300 digits
        raise errors.BadRequest(gettext("The request holds a number out of range.")) from None
    if _deeper_than(data, max_depth):
        raise _too_deep(max_depth)
    if not isinstance(data, dict):
        raise errors.BadRequest(gettext("The request must be a JSON object."))
    return data


def json_body(
    request,
    *,
    optional: bool = False,
    max_bytes: int = MAX_JSON_BYTES,
    max_depth: int = MAX_JSON_DEPTH,
) -> dict:
    """The request's body as a JSON object (`json_object`); an empty body is `{}` when
    `optional`. A body announced larger than `max_bytes` is refused before it is read."""
    announced = whole_number(request.META.get("CONTENT_LENGTH") or 0)
    if announced is not None and announced > max_bytes:
        raise _too_large(max_bytes)
    if optional and not request.body.strip():
        return {}
    return json_object(request.body, max_bytes=max_bytes, max_depth=max_depth)


def _too_large(limit: int) -> errors.BadRequest:
    message = gettext("The request is too large: at most %(limit)d bytes.")
    return errors.BadRequest(message % {"limit": limit})


def _too_deep(limit: int) -> errors.BadRequest:
    message = gettext("The request is nested too deeply: at most %(limit)d levels.")
    return errors.BadRequest(message % {"limit": limit})


def _no_number(name):
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is out of range")
    return number


def _deeper_than(value, limit: int) -> bool:
    """Whether arrays and objects nest in `value` more than `limit` levels (without recursion:
    what is checked here may be as deep as Python's own limit)."""
    waiting = [(value, 1)]
    while waiting:
        item, depth = waiting.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        waiting.extend((child, depth + 1) for child in children)
    return False


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
