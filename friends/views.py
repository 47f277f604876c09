"""The friends page and the friend buttons (profiles, the friends page): plain POST forms that
htmx posts too, every change through `friends.services`.

A plain POST gets a message and goes back to the page it came from; htmx gets the fragment it
targets redrawn (the friends page's lists, or one player's buttons) with the message in it, a
refusal's too.
"""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from biblios_site import errors
from biblios_site.inputs import page_to_return_to, whole_number
from friends import services
from friends.models import Friendship
from friends.presentation import actions_context, lists_context

LISTS_TARGET = "friend-lists"  # the id of the friends page's lists (what htmx swaps there)


@login_required
@require_GET
def friends_page(request):
    return render(request, "friends/friends.html", lists_context(request.user))


def _done(action: str, other, result) -> str:
    """What the page says once `action` on `other` went through."""
    if action == "request" and result.status == Friendship.Status.PENDING:
        text = gettext("Friend request sent to %(player)s.")
    elif action in ("request", "accept"):
        text = gettext("You and %(player)s are friends now.")
    else:
        text = {
            "refuse": gettext("You refused the request of %(player)s."),
            "cancel": gettext("You took back your request to %(player)s."),
            "remove": gettext("%(player)s is no longer your friend."),
            "block": gettext("You blocked %(player)s."),
            "unblock": gettext("You unblocked %(player)s."),
        }[action]
    return text % {"player": other}


ACTIONS = {
    "request": services.send_request,
    "accept": services.accept,
    "refuse": services.refuse,
    "cancel": services.cancel,
    "remove": services.remove_friend,
    "block": services.block,
    "unblock": services.unblock,
}


@login_required
@require_POST
def act(request, action: str):
    """One of ACTIONS on the player posted as `user` (an id)."""
    user_id = whole_number(request.POST.get("user"), minimum=1)
    other = get_user_model().objects.filter(pk=user_id, is_active=True).first() if user_id else None
    message, status = "", 200
    try:
        if action not in ACTIONS:
            raise errors.NotFound(gettext("there is no such action"))
        if other is None:
            raise errors.NotFound(gettext("there is no such player"))
        message = _done(action, other, ACTIONS[action](request.user, other))
    except errors.ServiceError as refusal:
        message, status = errors.sentence(refusal), refusal.status
    if not request.htmx:
        (messages.success if status == 200 else messages.error)(request, message)
        return redirect(_back(request))
    if request.htmx.target == LISTS_TARGET:
        context = {**lists_context(request.user), "message": message, "failed": status != 200}
        html = render_to_string("friends/friends.html#lists", context, request=request)
    elif other is not None:
        context = {**actions_context(request.user, other), "message": message}
        context["next"] = request.POST.get("next", "")
        context["failed"] = status != 200
        html = render_to_string("friends/friends.html#actions", context, request=request)
    else:
        html = format_html('<p role="alert">{}</p>', message)
    # 200 even for a refusal, which the fragment shows: htmx swaps no 4xx answer by default.
    return HttpResponse(html.strip())


def _back(request) -> str:
    """The page the form came from, else the friends page."""
    return page_to_return_to(request, reverse("friends:page"))
