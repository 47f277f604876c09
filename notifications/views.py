"""The notifications page, marking notifications read, the e-mail choice and the one-click
unsubscribe link. Every htmx action is also a plain form post."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from biblios_site.inputs import page_to_return_to, whole_number
from notifications import selectors, services, texts, tokens
from notifications.models import Preference


def entries_of(user) -> list[dict]:
    """The list's rows: each notification with its texts in the page's language, and whether
    it offers a Join button (an invitation or rematch to a table still open, the reader not
    seated there yet; it posts to the table's invite link, so a private table lets them in)."""
    rows = selectors.latest(user)
    seated = set(
        user.seats.filter(game__in=[n.game_id for n in rows if n.game_id]).values_list(
            "game_id", flat=True
        )
    )
    entries = []
    for notification in rows:
        game = notification.game
        joinable = (
            notification.event in (notification.Event.INVITATION, notification.Event.REMATCH)
            and game is not None
            and game.status == game.Status.OPEN
            and game.pk not in seated
        )
        entries.append(
            {"notification": notification, "text": texts.text_of(notification), "join": joinable}
        )
    return entries


@login_required
def notification_list(request):
    return render(request, "notifications/list.html", _list_context(request))


def _list_context(request) -> dict:
    return {
        "entries": entries_of(request.user),
        "unread": selectors.unread_count(request.user),
    }


@login_required
@require_POST
def mark_read(request):
    """Mark one notification read (`notification=<id>`) or all of them (`all`)."""
    if "all" in request.POST:
        services.mark_read(request.user)
    else:
        number = whole_number(request.POST.get("notification", ""))
        if number is None:
            return render(
                request,
                "notifications/list.html",
                {**_list_context(request), "error": gettext("Say which notification to mark.")},
                status=400,
            )
        services.mark_read(request.user, [number])
    if request.htmx:
        return render(request, "notifications/list.html#entries", _list_context(request))
    return redirect("notifications:list")


@login_required
@require_POST
def email_settings(request):
    """The e-mail choice from the profile page (or the notifications page)."""
    choice = request.POST.get("email", "")
    if choice not in Preference.Email.values:
        return render(
            request,
            "notifications/list.html",
            {**_list_context(request), "error": gettext("Choose one of the e-mail options.")},
            status=400,
        )
    services.set_email_choice(request.user, choice)
    return redirect(page_to_return_to(request, reverse("notifications:list")))


@csrf_exempt  # the link's signed token is the credential; mail clients post without a cookie
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: a page asking to confirm (link checkers and previews fetch GETs, so a GET changes
    nothing); POST, from that page or a mail client's one-click List-Unsubscribe-Post: no more
    e-mail. A bad or expired link says so and changes nothing; so does a link already used, or
    sent before the player last chose their e-mails (410), with the way to the choice."""
    page = "notifications/unsubscribe.html"
    link = tokens.link_of(token)
    if link is None:
        return render(request, page, {"bad": True}, status=400)
    if request.method == "POST":
        if services.unsubscribe_by_link(link.user, link.version):
            return render(request, page, {"done": True, "person": link.user})
    elif services.unsubscribe_link_serves(link.user, link.version):
        return render(request, page, {"person": link.user, "token": token})
    return render(request, page, {"spent": True}, status=410)
