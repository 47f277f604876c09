"""Subscribing a browser to push, and what makes the site an installable PWA: the web manifest,
the service worker (served from the root so that its scope is the whole site) and the page it
shows when the network is gone."""

import json

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from biblios_site import errors
from biblios_site.inputs import json_body
from webpush.delivery import push_enabled
from webpush.forms import SubscriptionForm, subscription_fields
from webpush.models import PushSubscription

# The site's palette (static/css/site.css): the nav's ink brown, the page's parchment.
THEME_COLOR = "#2b2118"
BACKGROUND_COLOR = "#f7f1e3"


# A subscription is about 1.3 kB of JSON (an endpoint of at most 1000 characters and two keys).
MAX_BODY_BYTES = 8 * 1024


def _posted(request) -> dict:
    """What the browser posted: a JSON object (push-device.js) or form fields; BadRequest when
    the JSON is unreadable (biblios_site.inputs.json_body)."""
    if request.content_type == "application/json":
        return json_body(request, max_bytes=MAX_BODY_BYTES)
    return request.POST.dict()


def _refused(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


@login_required
@require_POST
def subscribe(request):
    """Store this browser's subscription for the logged-in player (JSON in, JSON out). The same
    browser subscribing again updates its keys; subscribed under another account, it moves to
    this one (one browser, one person receiving its notices)."""
    if not push_enabled():
        return _refused(gettext("Notifications on devices are not available on this site."), 404)
    try:
        fields = subscription_fields(_posted(request))
    except errors.BadRequest as refusal:
        return _refused(str(refusal), refusal.status)
    fields["user_agent"] = request.headers.get("User-Agent", "")[:300]
    form = SubscriptionForm(fields)
    if not form.is_valid():
        problems = [f"{name}: {text}" for name, texts in form.errors.items() for text in texts]
        return _refused(" ".join(problems))
    data = form.cleaned_data
    cap = settings.MAX_PUSH_SUBSCRIPTIONS_PER_USER
    with transaction.atomic():
        # Locks the player's row, so two subscriptions at once cannot both pass the cap.
        User.objects.select_for_update().get(pk=request.user.pk)
        others = PushSubscription.objects.filter(user=request.user).exclude(
            endpoint=data["endpoint"]
        )
        if others.count() >= cap:
            message = ngettext(
                "Notifications are on for %(count)d device already: turn them off on one first.",
                "Notifications are on for %(count)d devices already: turn them off on one first.",
                cap,
            ) % {"count": cap}
            return _refused(message)
        PushSubscription.objects.update_or_create(
            endpoint=data["endpoint"],
            defaults={
                "user": request.user,
                "p256dh": data["p256dh"],
                "auth": data["auth"],
                "user_agent": data["user_agent"],
                "session_key": request.session.session_key or "",
            },
        )
    return JsonResponse({"subscribed": True})


@login_required
@require_POST
def unsubscribe(request):
    """Forget one browser's subscription (JSON with its endpoint, from push-device.js), or, from
    the profile page's plain form (`everywhere`), every device of the player."""
    try:
        posted = _posted(request)
    except errors.BadRequest as refusal:
        return _refused(str(refusal), refusal.status)
    mine = PushSubscription.objects.filter(user=request.user)
    if posted.get("everywhere"):
        mine.delete()
        return redirect("accounts:my_profile")
    endpoint = posted.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        return _refused(gettext("Send the subscription's endpoint to turn it off."))
    mine.filter(endpoint=endpoint).delete()
    return JsonResponse({"subscribed": False})


@require_GET
def manifest(request):
    """The web app manifest: what an installed Biblios looks like on a phone's home screen."""
    icons = [
        {"src": static(f"img/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ] + [
        {
            "src": static(f"img/icon-maskable-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "maskable",
        }
        for size in (192, 512)
    ]
    body = {
        "id": "/",
        "name": "Biblios Online",
        "short_name": "Biblios",
        "description": gettext("Play Biblios and other card games in the browser."),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games"],
        "icons": icons,
    }
    return HttpResponse(
        json.dumps(body, ensure_ascii=False), content_type="application/manifest+json"
    )


@require_GET
def favicon(request):
    """The site's icon where a page that names none (the admin's, a JSON answer) sends the
    browser to look: the PNG the manifest and the push notifications show, which every browser
    decodes as a favicon. A temporary redirect: the file's name carries its content's hash in
    production, and a new icon must not meet a redirect cached for good."""
    return redirect(static("img/icon-192.png"))


# What the offline page loads (webpush/templates/webpush/offline.html): the service worker keeps
# a copy of each from its first run.
OFFLINE_ASSETS = ("css/site.css", "img/favicon.svg")


@require_GET
def service_worker(request):
    """static/js/sw.js from the site's root, so it may control every page, never cached (a new
    version must reach browsers at their next visit); the URLs it needs come first, as the
    static files storage names them (content-hashed in production)."""
    with open(finders.find("js/sw.js"), encoding="utf-8") as source:
        script = source.read()
    config = {
        "offline": reverse("webpush:offline"),
        "offlineAssets": [static(name) for name in OFFLINE_ASSETS],
        "icon": static("img/icon-192.png"),
    }
    response = HttpResponse(
        f"const CONFIG = {json.dumps(config)};\n{script}",
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    add_never_cache_headers(response)
    return response


@require_GET
def offline(request):
    """What the service worker shows when a page cannot be reached: nothing of the player's
    (it is stored in the browser), and no script."""
    return render(request, "webpush/offline.html")
