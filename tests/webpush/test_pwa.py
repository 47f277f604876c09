"""What makes the site an installable app: the manifest and its icons, the service worker served
from the root, the offline page, and the key pair command for setting push up."""

import json
import struct
from io import StringIO

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from py_vapid import Vapid

from tests.webpush.push_service import BrowserKeys, vapid_keys
from webpush.checks import vapid_keys_match

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    with open(path, "rb") as image:
        head = image.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_describes_an_installable_app(client):
    answer = client.get("/manifest.webmanifest")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["name"] == "Biblios Online" and manifest["short_name"] == "Biblios"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#2b2118" and manifest["background_color"] == "#f7f1e3"
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        assert icon["src"].startswith("/static/img/") and icon["type"] == "image/png"
        path = finders.find(icon["src"].removeprefix("/static/"))
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert png_size(path) == (width, height)


def test_favicon_ico_leads_to_the_sites_icon(client):
    """Where a browser looks for the icon of a page that names none (the admin's)."""
    answer = client.get("/favicon.ico")
    assert answer.status_code == 302
    location = answer["Location"]
    assert location.startswith("/static/img/")
    path = finders.find(location.removeprefix("/static/"))
    assert path is not None, f"{location} is no static file"
    assert png_size(path) == (192, 192)


def test_the_manifest_speaks_the_visitors_language(client):
    manifest = json.loads(client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr").content)
    assert manifest["lang"] == "fr"
    assert manifest["description"] != "Play Biblios and other card games in the browser."


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#2b2118">' in page
    assert 'js/pwa.js" data-service-worker="/sw.js"' in page


def test_the_service_worker_is_served_from_the_root_never_cached(client):
    answer = client.get("/sw.js")

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer["Cache-Control"] and "max-age=0" in answer["Cache-Control"]
    script = answer.content.decode()
    first_line, _, rest = script.partition("\n")
    config = json.loads(first_line.removeprefix("const CONFIG = ").removesuffix(";"))
    assert config == {
        "offline": "/offline/",
        "offlineAssets": ["/static/css/site.css", "/static/img/favicon.svg"],
        "icon": "/static/img/icon-192.png",
    }
    for event in ("install", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{event}"' in rest


def test_the_offline_page_is_plain_and_personal_to_no_one(client, player):
    client.force_login(player)
    answer = client.get("/offline/")

    assert answer.status_code == 200
    page = answer.content.decode()
    assert "You are offline" in page
    assert player.username not in page  # the worker stores it in the browser
    assert "<script" not in page


def test_the_key_command_prints_a_pair_that_signs_and_subscribes():
    out = StringIO()
    call_command("generate_vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())

    vapid = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    headers = vapid.sign({"sub": "mailto:a@example.org", "aud": "https://fcm.googleapis.com"})
    assert f"k={lines['VAPID_PUBLIC_KEY']}" in headers["Authorization"]
    assert Vapid.verify(headers["Authorization"])
    # The public key is a P-256 point, as the browser's applicationServerKey must be.
    BrowserKeys.check_point(lines["VAPID_PUBLIC_KEY"])


def test_the_checks_refuse_keys_that_are_not_one_pair(settings):
    for name, value in vapid_keys().items():
        setattr(settings, name, value)
    assert vapid_keys_match(None) == []

    settings.VAPID_PUBLIC_KEY = vapid_keys()["VAPID_PUBLIC_KEY"]
    assert [error.id for error in vapid_keys_match(None)] == ["webpush.E002"]
    settings.VAPID_PRIVATE_KEY = "not a key"
    assert [error.id for error in vapid_keys_match(None)] == ["webpush.E001"]
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = settings.VAPID_SUBJECT = ""
    assert vapid_keys_match(None) == []  # push off: nothing to check
