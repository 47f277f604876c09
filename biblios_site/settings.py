"""Django settings for Biblios Online.

Everything that differs between a laptop and production comes from the environment
(django-environ), so one settings module serves both:

- DEBUG: off unless set; production is the default.
- SECRET_KEY: required with DEBUG off; with DEBUG on a fixed development key is used.
- ALLOWED_HOSTS: comma-separated host names (with DEBUG on and none set, Django allows
  localhost, 127.0.0.1 and [::1]).
- DATABASE_URL: database URL; a SQLite file in the project directory when unset.
- REDIS_URL: Redis for the channel layer; an in-process layer when unset.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)

# Starts with "django-insecure", so the check below also rejects it in production.
DEV_SECRET_KEY = "django-insecure-biblios-development-only-key"
SECRET_KEY = env.str("SECRET_KEY", default=DEV_SECRET_KEY if DEBUG else "")
if not DEBUG and (
    not SECRET_KEY or SECRET_KEY.startswith("django-insecure") or len(SECRET_KEY) < 32
):
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a random value of at least 32 characters, not starting "
        "with 'django-insecure', when DEBUG is off. Set DEBUG=1 for local development."
    )

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])

INSTALLED_APPS = [
    # daphne first, so that `manage.py runserver` serves ASGI (HTTP and WebSockets).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    # The default app config wraps the template loaders so `{% partialdef %}` works.
    "template_partials",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "biblios_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

ASGI_APPLICATION = "biblios_site.asgi.application"

DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the write lock when their transaction begins and wait up to 20 s for it, so
    # two moves at once queue up instead of failing with "database is locked"; WAL lets pages
    # keep reading meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 stops reading after 5 s by default, while the layer blocks ~5 s per
            # receive: without this, idle sockets die with TimeoutError (redis-py #4091).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None}]},
        },
    }
else:
    # Only reaches consumers in the same process: fine for one dev server and the tests.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Players log in through the accounts app; the admin keeps its own login page.
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
