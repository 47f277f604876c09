"""The installable app in chromium: the manifest is valid and the site installable,
the service worker installs at the root and becomes active, shows a pushed notice (one per tag)
and the offline page; the profile's switch subscribes this device and a notice sent by the site
reaches the push service, encrypted to it.

Headless chromium cannot make a real push subscription: in Playwright's (incognito) contexts
the Push API refuses ("not supported in incognito"), and in a persistent profile
`pushManager.subscribe` waits forever for Google's push service, which the tests do not reach.
So the switch's test replaces `PushManager.subscribe` with one returning the keys of a browser
made in the test (BrowserKeys), at a push service on 127.0.0.1; everything else (permission,
the page's script, the site's checks, VAPID, encryption, the worker's `push` handler fed by
DevTools' ServiceWorker.deliverPushMessage) is the real thing.
"""

import base64
import json
import re
import time
import urllib.request

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, manage, serve, site_env
from tests.browser.players import Player, unique_tag
from tests.browser.test_csp import Watched
from tests.webpush.push_service import BrowserKeys, start_push_service, vapid_keys

pytestmark = pytest.mark.slow(seconds=25)

ICONS_LOAD = """async () => {
  const manifest = await (await fetch("/manifest.webmanifest")).json();
  return Promise.all(manifest.icons.map(async (icon) => {
    const image = await createImageBitmap(await (await fetch(icon.src)).blob());
    return [icon.sizes, `${image.width}x${image.height}`];
  }));
}"""
WORKER = """() => navigator.serviceWorker.ready.then((registration) =>
  registration.active.state === "activated" ? registration.scope : null)"""
NOTICE = {"title": "Your turn in game 3", "body": "Biblios waits for your move."}
# Run in the service worker: records what it asks the browser to show.
RECORD_NOTICES = """() => {
  self.shown = [];
  const show = self.registration.showNotification.bind(self.registration);
  self.registration.showNotification = (title, options) => {
    self.shown.push([title, options]);
    return show(title, options);
  };
}"""
# Stands in for the browser's push service client (see the module's docstring); the subscription
# lives in localStorage, as the browser's own outlives a reload.
FAKE_PUSH_MANAGER = """
(() => {
  const subscription = %s;
  const current = () => {
    const made = localStorage.getItem("fake-push");
    if (!made) return null;
    return {
      endpoint: subscription.endpoint,
      options: {applicationServerKey: new Uint8Array(JSON.parse(made)).buffer},
      toJSON: () => subscription,
      unsubscribe: () => { localStorage.removeItem("fake-push"); return Promise.resolve(true); },
    };
  };
  PushManager.prototype.subscribe = function (options) {
    const key = Array.from(new Uint8Array(options.applicationServerKey));
    localStorage.setItem("fake-push", JSON.stringify(key));
    return Promise.resolve(current());
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current()); };
})();
"""


@pytest.fixture(scope="module")
def push_service():
    service = start_push_service()
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture(scope="module")
def push_site(tmp_path_factory, push_service):
    """A site with push on (a fresh VAPID pair), DEBUG on and the local push service's origin
    listed, so that it accepts that service's http endpoint; yields its base URL and
    environment."""
    folder = tmp_path_factory.mktemp("push-site")
    keys = vapid_keys()
    local = {"PUSH_SERVICE_LOCAL_ORIGINS": push_service.origin}
    env = site_env(folder, {"DEBUG": "1", **local, **keys})
    for base in serve(env, folder / "daphne.log"):
        yield base, env, keys


def test_the_site_installs_as_an_app_with_its_worker(push_site, browser, tmp_path):
    base, _, _ = push_site
    # A profile on disk: chromium calls Playwright's usual contexts incognito, never installable.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        permissions=["notifications"],
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(base + "/")
        devtools = context.new_cdp_session(page)

        manifest = devtools.send("Page.getAppManifest")
        assert manifest["url"] == base + "/manifest.webmanifest"
        assert manifest["errors"] == []
        assert manifest["manifest"]["display"] == "kStandalone"
        assert manifest["manifest"]["startUrl"] == base + "/"
        assert {size: got for size, got in page.evaluate(ICONS_LOAD)} == {
            "192x192": "192x192",
            "512x512": "512x512",
        }

        # The whole site, not /static/js/; null until the worker is activated.
        scope = _poll(page, lambda: page.evaluate(WORKER), until=bool)
        assert scope == base + "/"
        assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        # Pushes, as the push service would deliver them: the worker shows each, with its tag
        # (the browser replaces a notice of the same tag: a resent one never shows twice).
        registrations = []
        devtools.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.append(e))
        devtools.send("ServiceWorker.enable")  # reports the registrations there are
        [registration] = _poll(
            page,
            lambda: [r for u in registrations for r in u["registrations"] if not r["isDeleted"]],
            until=bool,
        )

        # Headless chromium shows a notice and may drop it at once (getNotifications() then
        # lists nothing), so the worker's calls to showNotification are what is read.
        [worker] = context.service_workers or [context.wait_for_event("serviceworker")]
        worker.evaluate(RECORD_NOTICES)
        url = base + "/games/3/"
        for tag in ("game-3", "game-4"):
            devtools.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": base,
                    "registrationId": registration["registrationId"],
                    "data": json.dumps({**NOTICE, "tag": tag, "url": url}),
                },
            )
        shown = _poll(page, lambda: worker.evaluate("() => self.shown"), until=lambda s: len(s) > 1)
        expected = {
            "body": NOTICE["body"],
            "icon": "/static/img/icon-192.png",
            "data": {"url": url},
        }
        assert shown == [
            [NOTICE["title"], {**expected, "tag": "game-3"}],
            [NOTICE["title"], {**expected, "tag": "game-4"}],
        ]

        # Offline, a page cannot be reached: the worker shows the stored offline page, styled.
        context.set_offline(True)
        page.goto(base + "/accounts/login/")
        assert page.inner_text("h1") == "You are offline"
        background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(247, 241, 227)"  # site.css's --bg: the stylesheet came too
        context.set_offline(False)
        page.goto(base + "/accounts/login/")
        assert page.query_selector("form[action$='/accounts/login/']") is not None
    finally:
        context.close()


def test_the_profile_switch_subscribes_this_device(push_site, push_service, browser):
    base, env, keys = push_site
    phone = BrowserKeys()
    name = f"pwa{unique_tag()}"
    endpoint = push_service.url(name)
    player = Player(browser, base, name)
    watched = Watched(player)
    player.context.grant_permissions(["notifications"], origin=base)
    player.context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(phone.subscription(endpoint)))
    player.sign_up()
    page = player.page
    switch = "form.push-device"

    page.goto(f"{base}/accounts/u/{name}/")
    page.wait_for_selector(f"{switch}[data-state=off]")
    assert page.inner_text(".push-status") == "Notifications are off for this device."
    assert page.query_selector("input[name=everywhere]") is None

    page.click(".push-toggle")
    page.wait_for_selector(f"{switch}[data-state=on]")
    assert page.inner_text(".push-toggle") == "Stop notifications on this device"
    # The page subscribed with the site's VAPID public key, decoded right.
    subscribed_with = page.evaluate("() => JSON.parse(localStorage.getItem('fake-push'))")
    phone.check_point(keys["VAPID_PUBLIC_KEY"])
    assert bytes(subscribed_with) == _unb64(keys["VAPID_PUBLIC_KEY"])

    # The site now knows the device: the profile offers to stop it, and a notice reaches it.
    page.reload()
    page.wait_for_selector(f"{switch}[data-state=on]")
    assert page.query_selector("input[name=everywhere]") is not None
    sent = manage(
        env,
        "shell",
        "-v0",  # no list of the objects it imports
        "-c",
        "from accounts.models import User; from webpush.delivery import send_to_user; "
        f"print(send_to_user(User.objects.get(username='{name}'), title='Your turn', "
        "body='Game 9 waits.', url='/games/9/', tag='game-9'))",
    )
    assert sent.strip() == "1"
    [message] = push_service.on(name)
    assert phone.decrypt(message.body) == {
        "title": "Your turn",
        "body": "Game 9 waits.",
        "url": "/games/9/",
        "tag": "game-9",
    }

    page.click(".push-toggle")
    page.wait_for_selector(f"{switch}[data-state=off]")
    page.reload()
    page.wait_for_selector(f"{switch}[data-state=off]")
    assert page.query_selector("input[name=everywhere]") is None

    # Logging out turns the device off: the browser drops its subscription (pwa.js), and the
    # site forgets it, so the next person at this computer gets nothing of this player's games.
    page.click(".push-toggle")
    page.wait_for_selector(f"{switch}[data-state=on]")
    with page.expect_navigation():
        page.click("form.logout [type=submit]")
    assert page.evaluate("() => localStorage.getItem('fake-push')") is None
    devices = manage(
        env,
        "shell",
        "-v0",
        "-c",
        "from webpush.models import PushSubscription; "
        f"print(PushSubscription.objects.filter(user__username='{name}').count())",
    )
    assert devices.strip() == "0"
    assert watched.errors == []
    player.close()


def _unb64(value: str) -> bytes:
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def _poll(page, read, *, until, seconds: float = 5.0):
    """`read()` again until `until` holds of it (or the time is up); its last value. For what
    Playwright cannot wait on: DevTools events, and promises (wait_for_function takes a pending
    promise for a truthy value). Waits through the page, so that Playwright's loop runs and
    delivers events meanwhile."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if until(value) or time.monotonic() > deadline:
            return value
        page.wait_for_timeout(100)


def test_in_production_the_worker_names_the_files_whitenoise_serves(production_site):
    """DEBUG off: content-hashed static names; the worker, manifest and offline page are served
    by Django from the root, and what the worker stores for the offline page is there."""
    with urllib.request.urlopen(production_site + "/sw.js") as answer:
        assert answer.headers["Service-Worker-Allowed"] == "/"
        assert answer.headers["Content-Type"] == "text/javascript; charset=utf-8"
        first_line = answer.read().decode().partition("\n")[0]
    config = json.loads(first_line.removeprefix("const CONFIG = ").removesuffix(";"))
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", config["offlineAssets"][0])
    for path in [config["offline"], config["icon"], *config["offlineAssets"]]:
        with urllib.request.urlopen(production_site + path) as answer:
            assert answer.status == 200
    with urllib.request.urlopen(production_site + "/manifest.webmanifest") as answer:
        manifest = json.loads(answer.read())
    for icon in manifest["icons"]:
        assert re.fullmatch(r"/static/img/icon-[a-z-]*\d+\.[0-9a-f]{12}\.png", icon["src"])
        with urllib.request.urlopen(production_site + icon["src"]) as answer:
            assert answer.headers["Content-Type"] == "image/png"
