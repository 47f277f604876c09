"""The API's HTTP protocol, shared by every JSON endpoint (`games.api`, `games.api_record`,
`ratings.views`): bearer-token authentication, the method check and JSON errors; the views
read their JSON bodies with the site's one reader (`biblios_site.inputs.json_body`).

Every request carries `Authorization: Bearer <token>` (accounts.models.ApiToken); cookies and
sessions are ignored entirely. That is why the views are CSRF-exempt: CSRF protects requests a
browser authenticates on its own with a cookie, and a browser never adds a bearer token by
itself, so a request without a valid token is refused (401) before anything is read or written.
Every answer is JSON, errors included: `{"error": "..."}` with a 4xx status, never an HTML page
or a 500.
"""

import functools
import logging

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from accounts.models import ApiToken
from biblios_site import errors, overload, ratelimit
from biblios_site.inputs import whole_number

logger = logging.getLogger("games.api")

TYPE_WORDS = {
    int: "a whole number",
    str: "a string",
    bool: "true or false",
    dict: "a JSON object",
    list: "a JSON array",
}


def error(message: str, code: int, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=code)


def api_view(*methods):
    """Method check, bearer-token authentication and JSON errors around an API view.

    The view receives the token's user as `request.user`; a ServiceError it raises becomes
    `{"error": message}` with the error's status.
    """

    def decorate(view):
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                response = error(f"{request.method} is not allowed here", 405)
                response["Allow"] = ", ".join(methods)
                return response
            credential = overload.token_credential(request.headers.get("Authorization", ""))
            try:
                request.user = authenticate(request)
                overload.clients.learn(credential, request.user.pk)  # fair shedding by user
                ratelimit.hit("api", request.user.pk)
                return view(request, *args, **kwargs)
            except errors.Unauthorized as refusal:
                overload.clients.forget(credential)
                response = error(str(refusal), 401)
                response["WWW-Authenticate"] = 'Bearer realm="api"'
                return response
            except ratelimit.RateLimited as refusal:
                response = error(str(refusal), 429)
                response["Retry-After"] = str(refusal.retry_after)
                return response
            except errors.ServiceError as refusal:
                return error(str(refusal), refusal.status)
            except RequestDataTooBig:
                return error("the request body is too large", 413)
            except Exception as failure:
                if overload.database_busy(failure):  # nothing was applied: retry later
                    logger.warning("database busy on %s %s: 503", request.method, request.path)
                    return overload.busy_response(request)
                # A bug, not bad input: log it, but still answer in the API's own format.
                logger.exception("board API failure on %s %s", request.method, request.path)
                return error("internal error", 500)

        return wrapper

    return decorate


def authenticate(request):
    """The active user of the request's bearer token, or Unauthorized."""
    header = request.headers.get("Authorization", "")
    scheme, _, raw = header.partition(" ")
    if not header:
        raise errors.Unauthorized("send your API token as 'Authorization: Bearer <token>'")
    if scheme.lower() != "bearer" or not raw.strip():
        raise errors.Unauthorized("the Authorization header must be 'Bearer <token>'")
    user = ApiToken.user_for(raw.strip())
    if user is None:
        raise errors.Unauthorized("this API token is not valid")
    return user


def checked_fields(data: dict, fields: dict) -> dict:
    """`data` if it has only known fields, each of the expected JSON type (bools are not ints)."""
    unknown = sorted(set(data) - set(fields))
    if unknown:
        expected = f"expected {', '.join(fields)}" if fields else "send no fields"
        raise errors.BadRequest(f"unknown field(s): {', '.join(unknown)[:200]}; {expected}")
    for name, value in data.items():
        kind = fields[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise errors.BadRequest(f"{name} must be {TYPE_WORDS[kind]}")
    return data


DEFAULT_LIMIT, MAX_LIMIT = 50, 100


def page_limit(request) -> int:
    """How many items a list endpoint returns: its `limit` query parameter, or the default."""
    limit = whole_number(request.GET.get("limit", str(DEFAULT_LIMIT)), minimum=1, maximum=MAX_LIMIT)
    if limit is None:
        raise errors.BadRequest(f"limit must be a whole number from 1 to {MAX_LIMIT}")
    return limit
