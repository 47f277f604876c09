"""Site skeleton: settings from the environment, the home page, accounts, channel layer."""

import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import User

REPO_ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_KEY = "k3Jq9vXw2LmN8pRt5YzA7cEf4GhU6bDs1QoV0iWx"


def run_with_settings(code, **env_vars):
    """Evaluate biblios_site.settings in a fresh interpreter with exactly these variables set."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "SITE_URL"}
    }
    env.update(DJANGO_SETTINGS_MODULE="biblios_site.settings", **env_vars)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "secret_key",
    [None, "django-insecure-biblios-development-only-key", "too-short-but-not-insecure"],
    ids=["missing", "dev-placeholder", "short"],
)
def test_production_refuses_to_start_without_a_real_secret_key(secret_key):
    env_vars = {"DEBUG": "0"}
    if secret_key is not None:
        env_vars["SECRET_KEY"] = secret_key
    result = run_with_settings("import django; django.setup()", **env_vars)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


@pytest.mark.parametrize(
    "env_vars",
    [{"DEBUG": "0", "SECRET_KEY": PRODUCTION_KEY}, {"DEBUG": "1"}],
    ids=["production-with-key", "debug-without-key"],
)
def test_settings_start_with_a_real_key_or_in_debug(env_vars):
    result = run_with_settings("import django; django.setup()", **env_vars)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    "env_vars, site_url",
    [
        ({"DEBUG": "1"}, "http://localhost:8000"),
        (
            {"DEBUG": "0", "SECRET_KEY": PRODUCTION_KEY, "ALLOWED_HOSTS": "biblios.example.org"},
            "https://biblios.example.org",
        ),
        (
            {"DEBUG": "0", "SECRET_KEY": PRODUCTION_KEY, "SITE_URL": "https://play.example.org"},
            "https://play.example.org",
        ),
    ],
    ids=["debug", "production-from-allowed-hosts", "production-set"],
)
def test_links_in_e_mails_and_pushes_lead_to_the_site(env_vars, site_url):
    """A production e-mail never links to localhost unless told to."""
    code = "from django.conf import settings; print(settings.SITE_URL)"
    result = run_with_settings(code, **env_vars)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == site_url


def test_every_searching_bot_thinks_for_the_budget_set_and_the_old_name_is_refused():
    """BOT_BUDGET_S is every game's (the platform names no game's bot); an operator who still
    sets the Abbot's old variable learns its new name instead of silently losing it."""
    code = "from django.conf import settings; print(settings.BOT_BUDGET_S)"
    assert run_with_settings(code, DEBUG="1").stdout.strip() == "1.0"
    assert run_with_settings(code, DEBUG="1", BOT_BUDGET_S="0.25").stdout.strip() == "0.25"
    refused = run_with_settings(code, DEBUG="1", ABBOT_BUDGET_S="0.25")
    assert refused.returncode != 0 and "ABBOT_BUDGET_S is now BOT_BUDGET_S" in refused.stderr


PRINT_BACKENDS = (
    "from django.conf import settings; "
    "print(settings.CHANNEL_LAYERS['default']['BACKEND']); "
    "print(settings.DATABASES['default']['ENGINE'])"
)


def test_defaults_are_in_memory_channel_layer_and_sqlite():
    result = run_with_settings(PRINT_BACKENDS, DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "games.play.broadcast.InMemoryChannelLayer",  # channels' in-memory layer, swept less often
        "biblios_site.sqlite",  # Django's SQLite, keeping requests' connections for the next
    ]


def test_redis_and_database_urls_select_redis_and_postgresql():
    result = run_with_settings(
        PRINT_BACKENDS,
        DEBUG="1",
        REDIS_URL="redis://127.0.0.1:6379/0",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "channels_redis.core.RedisChannelLayer",
        "django.db.backends.postgresql",
    ]


def test_channel_layer_delivers_a_message():
    """Whichever layer is configured (Redis under `make test-services`) carries messages."""
    layer = get_channel_layer()
    token = uuid.uuid4().hex

    async def round_trip():
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "test.ping", "token": token})
        return await layer.receive(channel)

    assert async_to_sync(round_trip)() == {"type": "test.ping", "token": token}


@pytest.mark.django_db
def test_home_page_loads_htmx_from_local_static_files(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Biblios Online" in html
    sources = re.findall(r'<script src="([^"]+)"', html)
    htmx = [src for src in sources if "/htmx" in src]
    assert htmx, sources
    for src in htmx:
        # Served by this site, not a CDN, and backed by a real file.
        assert src.startswith(settings.STATIC_URL + "django_htmx/")
        assert finders.find(src.removeprefix(settings.STATIC_URL)) is not None


@pytest.mark.django_db
def test_admin_login_page_is_served(client):
    assert client.get("/admin/login/").status_code == 200


def test_asgi_routes_http_to_django_and_websockets_to_channels():
    from biblios_site.asgi import application

    assert set(application.application_mapping) == {"http", "websocket"}


def test_custom_user_model_is_in_use():
    assert get_user_model() is User


@pytest.mark.django_db
def test_ensure_demo_admin_creates_one_superuser_idempotently(settings):
    settings.DEBUG = True
    call_command("ensure_demo_admin")
    call_command("ensure_demo_admin")
    admins = User.objects.filter(is_superuser=True)
    assert [admin.username for admin in admins] == ["admin"]
    assert admins[0].check_password("admin")


@pytest.mark.django_db
def test_ensure_demo_admin_refuses_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("ensure_demo_admin")
    assert not User.objects.exists()
