"""Django settings for Biblios Online.

Everything that differs between a laptop and production comes from the environment
(django-environ), so one settings module serves both:

- DEBUG: off unless set; production is the default.
- SECRET_KEY: required with DEBUG off; with DEBUG on a fixed development key is used.
- ALLOWED_HOSTS: comma-separated host names (with DEBUG on and none set, Django allows
  localhost, 127.0.0.1 and [::1]).
- DATABASE_URL: database URL; a SQLite file in the project directory when unset. PostgreSQL
  connections come from Django's connection pool (DB_POOL_MIN_SIZE, DB_POOL_MAX_SIZE).
- REDIS_URL: Redis for the channel layer and the cache (rate limits shared by every worker);
  an in-process layer and cache when unset.
- With DEBUG off (docs/deploy.md): CSRF_TRUSTED_ORIGINS (comma-separated https origins),
  SECURE_SSL_REDIRECT (default on), SECURE_HSTS_SECONDS (default one year).
- Limits where abuse is cheap (docs/deploy.md lists them all), each "<count>/<seconds>" in
  RATE_LIMITS (biblios_site/ratelimit.py): RATE_LIMIT_ACTIONS (moves per user, default 30/10),
  RATE_LIMIT_API (API calls per user, 120/10), RATE_LIMIT_CHAT (chat messages per user, 5/10),
  RATE_LIMIT_LOGINS (log-in attempts per IP address, 20/60), RATE_LIMIT_SIGNUPS (accounts
  per IP address, 10/3600), RATE_LIMIT_REPORTS (reports per reporter, 10/3600),
  RATE_LIMIT_REPORTS_PER_PLAYER (per reporter and reported player, 3/3600), RATE_LIMIT_RESYNCS
  (full boards asked for per socket, 10/10), RATE_LIMIT_FRIEND_REQUESTS (new friend requests
  per user, 20/3600), RATE_LIMIT_PAGES (page reads per user, else per IP address, 60/10),
  RATE_LIMIT_SOCKET_MESSAGES (messages per socket, 10/1) and RATE_LIMIT_CLIENT_SOCKET_MESSAGES
  (per user or IP address over all its sockets, 30/1), both in each worker's memory.
  MAX_OPEN_TABLES_PER_USER (default 3): tables one
  host may have waiting to start. LOGIN_FAILURE_LIMIT (default 5) wrong passwords for one
  username from one IP address lock that pair out for LOGIN_COOLOFF_S (default 900) seconds
  (django-axes).
- STATIC_ROOT: where `collectstatic` writes the files whitenoise serves (default staticfiles/).
- MAX_INFLIGHT_REQUESTS (default 32): HTTP requests one worker serves at once; beyond that it
  answers 503 with Retry-After (SHED_RETRY_AFTER_S, default 1) at once (biblios_site/overload.py).
  MAX_INFLIGHT_PER_CLIENT (default a quarter of it): of those, what one user (else one IP
  address) may hold; INFLIGHT_RESERVED_FOR_MOVES (default a quarter): kept for moves.
- E-mail (notifications/): EMAIL_URL (SMTP server as a URL, e.g.
  smtp+tls://user:password@smtp.example.com:587; unset: the console under DEBUG, else
  localhost:25), DEFAULT_FROM_EMAIL, EMAIL_TIMEOUT (seconds, default 10); SITE_URL (the
  site's https address, for links in e-mails and pushes; in production by default https on
  the first of ALLOWED_HOSTS); NOTIFY_POLL_S (default 1): how often
  each worker sends what the outbox holds (docs/notifications.md).
- VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT (a mailto: or https: contact for the
  push services): Web Push (webpush/). `manage.py generate_vapid_keys` prints a key pair. With
  any of them unset push is off (no device can subscribe, nothing is sent); the site runs.
  PUSH_SERVICE_HOSTS: the push services a subscription may point at (default: Google's,
  Mozilla's, Apple's, Microsoft's); MAX_PUSH_SUBSCRIPTIONS_PER_USER (default 10) devices.
  PUSH_SERVICE_LOCAL_ORIGINS (DEBUG only): exact origins of a local push service, such as
  http://127.0.0.1:8765, for development and the tests.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
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

# The game kinds this site hosts (games/kinds/registry.py): each a package and a Django app.
GAME_KINDS = ["games.kinds.biblios", "games.kinds.exlibris"]

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
    # Counts failed log-ins and locks out (username, IP address) pairs (AXES_* below).
    "axes",
    "accounts",
    # Friend requests, friendships and blocks (a platform app below games).
    "friends",
    "games",
    *GAME_KINDS,
    "ratings",
    # What users are told (in the site, by e-mail, by push) and the outbox that sends it.
    "notifications",
    # Browser push subscriptions and sending (VAPID_* below).
    "webpush",
    # Background jobs stored in the database (TASKS below): game analyses.
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # The Permissions-Policy header (PERMISSIONS_POLICY below).
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # Cache-Control: private, no-store on what is one reader's (a session's, the API's).
    "biblios_site.headers.PrivateResponses",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions, before common: picks the language from the cookie or Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Tells the load shedder which user a session stands for (biblios_site/overload.py).
    "biblios_site.overload.RememberClients",
    # Needs request.user: a logged-in player's profile language beats cookie and browser.
    "accounts.middleware.ProfileLanguageMiddleware",
    # Page reads per user or address, like API calls (RATE_LIMITS["page"]), refused in the
    # reader's language.
    "biblios_site.ratelimit.LimitPageReads",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Turns django-axes' lockout of a log-in into its answer (AXES_LOCKOUT_CALLABLE).
    "axes.middleware.AxesMiddleware",
    # A view whose transaction found the database busy answers 503, not 500.
    "biblios_site.overload.BusyDatabaseMiddleware",
]

ROOT_URLCONF = "biblios_site.urls"

# The navigation's counts ("Your turn", unread notifications, friend requests), one context
# processor per app: every page and the navigation's socket (notifications.consumers) read them.
NAV_COUNTS = [
    "games.context_processors.your_turn",
    "notifications.context_processors.unread",
    "friends.context_processors.requests",
]

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
                "accounts.context_processors.theme",
                *NAV_COUNTS,
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
    # keep reading meanwhile. The sockets' connection stays open: opening one (and its PRAGMAs)
    # on every socket message cost a worker a tenth of its time under load (benchmarks/load.py).
    # An HTTP request's, on a thread of its own, is handed to the next request when it ends
    # (http_handler.py; the backend biblios_site.sqlite keeps a few for them).
    DATABASES["default"]["ENGINE"] = "biblios_site.sqlite"
    DATABASES["default"]["CONN_MAX_AGE"] = None
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's pool (psycopg_pool), not CONN_MAX_AGE: a worker serves every request and socket
    # from one thread, so a handful of connections per worker is plenty.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=10),
    }

REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    from redis.exceptions import ConnectionError as RedisConnectionError

    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # redis-py 8 stops reading after 5 s by default, while the layer blocks
                        # ~5 s per receive: without this, idle sockets die with TimeoutError
                        # (redis-py #4091).
                        "socket_timeout": None,
                        # channels-redis builds its own connection pools, whose connections get
                        # no retry (redis-py's default retries are for the clients it builds):
                        # after a Redis restart the first command on each pooled connection
                        # failed. With one retry, a command that finds its connection closed
                        # reconnects and is sent again (hints are idempotent).
                        "retry_on_error": [RedisConnectionError],
                    }
                ]
            },
        },
    }
else:
    # Only reaches consumers in the same process: fine for one dev server and the tests.
    # Channels' in-memory layer with a cheaper expiry sweep (games/play/broadcast.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.play.broadcast.InMemoryChannelLayer"}}

# The cache holds rate-limit counters: in Redis they are shared by every worker.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "biblios",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


# E-mail (notifications/): EMAIL_URL names the SMTP server, e.g.
# smtp+tls://user:password@smtp.example.com:587 (django-environ's email_url); unset, e-mails
# are printed on the console under DEBUG (`make run`) and go to SMTP on localhost:25 otherwise.
# The tests use Django's in-memory outbox. SITE_URL is the site's address for the links in
# e-mails and pushes; the outbox is polled every NOTIFY_POLL_S by each daphne worker.
if "EMAIL_URL" in env:
    globals().update(env.email_url("EMAIL_URL"))
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Biblios Online <noreply@localhost>")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
# In production without SITE_URL: https on the first of ALLOWED_HOSTS (never a link to localhost).
SITE_URL = env.str(
    "SITE_URL",
    default=f"https://{ALLOWED_HOSTS[0]}"
    if not DEBUG and ALLOWED_HOSTS and ALLOWED_HOSTS[0] != "*"
    else "http://localhost:8000",
)
NOTIFY_POLL_S = env.float("NOTIFY_POLL_S", default=1.0)

# Web Push (webpush/): the application server's P-256 key pair, base64url (the raw 65-byte public
# point the browser subscribes with, the raw 32-byte private number), and the contact the push
# services may write to. All three or none: without them push is off, not broken.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="")
if any((VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT)) and not (
    VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY and VAPID_SUBJECT.startswith(("mailto:", "https:"))
):
    raise ImproperlyConfigured(
        "Web Push needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (mailto: or "
        "https:) together; unset all three to turn push off."
    )
# The server POSTs to whatever endpoint a browser subscribed with, so only the browsers' push
# services are accepted (a leading dot: any subdomain), never an address inside our network
# (webpush/endpoints.py says exactly what passes).
PUSH_SERVICE_HOSTS = env.list(
    "PUSH_SERVICE_HOSTS",
    default=[
        "fcm.googleapis.com",  # Chrome and most Chromium browsers
        "updates.push.services.mozilla.com",  # Firefox
        "web.push.apple.com",  # Safari
        ".notify.windows.com",  # Edge
    ],
)
# Development and tests only: exact origins ("http://127.0.0.1:8765": scheme, host and port)
# of a local push service that endpoints may point at besides PUSH_SERVICE_HOSTS.
PUSH_SERVICE_LOCAL_ORIGINS = env.list("PUSH_SERVICE_LOCAL_ORIGINS", default=[])
if PUSH_SERVICE_LOCAL_ORIGINS and not DEBUG:
    raise ImproperlyConfigured("PUSH_SERVICE_LOCAL_ORIGINS is for development only (DEBUG on)")
# Devices one account may subscribe (each a row, and a message per notice).
MAX_PUSH_SUBSCRIPTIONS_PER_USER = env.int("MAX_PUSH_SUBSCRIPTIONS_PER_USER", default=10)
if MAX_PUSH_SUBSCRIPTIONS_PER_USER < 1:
    raise ImproperlyConfigured("MAX_PUSH_SUBSCRIPTIONS_PER_USER must be at least 1")

# Load shedding (biblios_site/overload.py): a worker admits this many HTTP requests at once and
# answers the rest 503 with Retry-After, instead of queueing them until they time out. Fairly:
# one client (a user, else an address) holds at most MAX_INFLIGHT_PER_CLIENT of them (at least
# MAX_INFLIGHT_REQUESTS turns the share off), and INFLIGHT_RESERVED_FOR_MOVES are kept for moves.
MAX_INFLIGHT_REQUESTS = env.int("MAX_INFLIGHT_REQUESTS", default=32)
MAX_INFLIGHT_PER_CLIENT = env.int(
    "MAX_INFLIGHT_PER_CLIENT", default=max(1, MAX_INFLIGHT_REQUESTS // 4)
)
INFLIGHT_RESERVED_FOR_MOVES = env.int(
    "INFLIGHT_RESERVED_FOR_MOVES", default=MAX_INFLIGHT_REQUESTS // 4
)
SHED_RETRY_AFTER_S = env.int("SHED_RETRY_AFTER_S", default=1)
if min(MAX_INFLIGHT_REQUESTS, MAX_INFLIGHT_PER_CLIENT, SHED_RETRY_AFTER_S) < 1:
    raise ImproperlyConfigured(
        "MAX_INFLIGHT_REQUESTS, MAX_INFLIGHT_PER_CLIENT and SHED_RETRY_AFTER_S must be at least 1"
    )
if not 0 <= INFLIGHT_RESERVED_FOR_MOVES < MAX_INFLIGHT_REQUESTS:
    raise ImproperlyConfigured(
        "INFLIGHT_RESERVED_FOR_MOVES must be at least 0 and less than MAX_INFLIGHT_REQUESTS"
    )

# Bots and turn timers (games/play/turns.py): every daphne process runs the turn worker unless
# TURN_WORKER is off; a bot waits BOT_MOVE_DELAY_S before moving so people can follow. The
# worker sleeps until the next due move, woken by its own process's commits; TURN_WORKER_POLL_S
# bounds the sleep, for the moves other processes schedule (and those a dead one left).
TURN_WORKER = env.bool("TURN_WORKER", default=True)
TURN_WORKER_POLL_S = env.float("TURN_WORKER_POLL_S", default=1.0)
# How often each process looks for tournaments to start (games/tournaments/clock.py).
TOURNAMENT_POLL_S = env.float("TOURNAMENT_POLL_S", default=5.0)
BOT_MOVE_DELAY_S = env.float("BOT_MOVE_DELAY_S", default=0.8)
# The CPU seconds a searching bot (any game's) thinks per decision.
BOT_BUDGET_S = env.float("BOT_BUDGET_S", default=1.0)

# Reviews of finished games (games/analysis): jobs in the database, drained by every daphne
# process beside its turn worker, one at a time each. ANALYSIS_ROUNDS: sampled worlds per
# decision for every game, up to eight times as many where the grade is in doubt; unset, each
# game's own (its Reviewer's `worlds`: Biblios 30, Ex Libris 60 and 240 in solo,
# docs/review.md); tests set one so that a review ends in seconds. ANALYSIS_BUDGET_S: the CPU
# seconds a job may spend before it is given up; ANALYSIS_QUEUED_PER_USER: the analyses a
# person may have waiting at once.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["analysis"]}}
ANALYSIS_ROUNDS = env.int("ANALYSIS_ROUNDS", default=None)
if ANALYSIS_ROUNDS is not None and ANALYSIS_ROUNDS < 1:
    raise ImproperlyConfigured("ANALYSIS_ROUNDS must be at least 1 world a decision, or unset")
ANALYSIS_BUDGET_S = env.float("ANALYSIS_BUDGET_S", default=900.0)
ANALYSIS_QUEUED_PER_USER = env.int("ANALYSIS_QUEUED_PER_USER", default=3)
ANALYSIS_POLL_S = env.float("ANALYSIS_POLL_S", default=2.0)
if "ABBOT_BUDGET_S" in env:
    raise ImproperlyConfigured("ABBOT_BUDGET_S is now BOT_BUDGET_S: every searching bot's budget")

# Every limit on requests, "<count>/<seconds>" (biblios_site/ratelimit.py; docs/deploy.md says
# why each is where it is). Actions are counted per user across the web page, the socket and the
# API together; a person plays a few per second at most, a bot somewhat more. Chat is an exact
# count of the user's messages (games/chat.py). Log-ins and sign-ups count per IP address (the
# proxy's X-Forwarded-For, through daphne --proxy-headers), reports per reporter and per
# (reporter, reported player), resyncs per socket, page reads (every GET outside the API, like
# API calls) per user or else per IP address, socket messages per socket and per user or address.
RATE_LIMITS = {
    "action": env.str("RATE_LIMIT_ACTIONS", default="30/10"),
    "api": env.str("RATE_LIMIT_API", default="120/10"),
    "chat": env.str("RATE_LIMIT_CHAT", default="5/10"),
    "login": env.str("RATE_LIMIT_LOGINS", default="20/60"),
    "signup": env.str("RATE_LIMIT_SIGNUPS", default="10/3600"),
    "report": env.str("RATE_LIMIT_REPORTS", default="10/3600"),
    "report_pair": env.str("RATE_LIMIT_REPORTS_PER_PLAYER", default="3/3600"),
    "resync": env.str("RATE_LIMIT_RESYNCS", default="10/10"),
    "friend_request": env.str("RATE_LIMIT_FRIEND_REQUESTS", default="20/3600"),
    "page": env.str("RATE_LIMIT_PAGES", default="60/10"),
    # Counted in each worker's memory, not the cache: they guard that worker, on every message.
    "socket_message": env.str("RATE_LIMIT_SOCKET_MESSAGES", default="10/1"),
    "client_socket_message": env.str("RATE_LIMIT_CLIENT_SOCKET_MESSAGES", default="30/1"),
}
for _scope, _rate in RATE_LIMITS.items():
    _count, _, _seconds = _rate.partition("/")
    if not (_count.isdigit() and _seconds.isdigit() and int(_count) >= 1 and int(_seconds) >= 1):
        raise ImproperlyConfigured(f"rate limit {_scope!r} must be '<count>/<seconds>': {_rate!r}")

# Tables one host may have waiting to start (games/services.py): without a cap, one user filled
# the lobby and pushed every other table out of it.
MAX_OPEN_TABLES_PER_USER = env.int("MAX_OPEN_TABLES_PER_USER", default=3)

# Log-in lockout (django-axes): LOGIN_FAILURE_LIMIT wrong passwords for one username from one
# IP address lock that pair out for LOGIN_COOLOFF_S, counted from the last failure; meanwhile no
# password is even checked. The axes backend must come first. Locked-out visitors get the log-in
# page in their language with the reason and Retry-After (accounts.views.locked_out).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # A banned account's right password gets the ban's reason, not "wrong password".
    "accounts.backends.SuspendedAccountBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_COOLOFF_S = env.int("LOGIN_COOLOFF_S", default=15 * 60)
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_COOLOFF_S)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
# Failures only: no row per successful log-in.
AXES_DISABLE_ACCESS_LOG = True
if AXES_FAILURE_LIMIT < 1 or LOGIN_COOLOFF_S < 1:
    raise ImproperlyConfigured("LOGIN_FAILURE_LIMIT and LOGIN_COOLOFF_S must be at least 1")

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

LANGUAGE_CODE = "en"
# The UI languages; `make messages` extracts the catalogues, the build compiles them.
LANGUAGES = [("en", "English"), ("fr", "Français"), ("es", "Español")]
# The visitor's choice from the Language menu; no script reads it (Secure in production, below).
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `collectstatic` writes (the load benchmark collects into a temporary directory).
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
# In production `collectstatic` writes compressed, content-hashed copies that whitenoise serves
# with far-future cache headers; during development files are served as they are.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Pages may use only this site's own scripts, styles, images and sockets: no inline script,
# event handler or style attribute anywhere (htmx's injected indicator style and its eval are
# switched off in templates/base.html). In CSP3 'self' also matches ws:// and wss:// on the
# page's own host and port, which is all the live sockets need. tests/browser/test_csp.py walks
# every page in chromium and fails on any violation.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# The browser features no page uses, denied to every page and any frame in it (a page that
# did try one gets a refusal, as if the visitor had said no). Kept: the clipboard (copying an
# invite link) for this site only, and autoplay at its default (the board's turn beep, Web
# Audio started after a click). Notifications and push are permissions, not policy-controlled
# features: the policy has no name for them, and they are asked for as before.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "browsing-topics",
        "camera",
        "display-capture",
        "encrypted-media",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "local-fonts",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "xr-spatial-tracking",
    )
} | {"clipboard-write": "self"}

if not DEBUG:
    # The workers serve the collected static files themselves, with far-future caching
    # (development has runserver's static view instead); not collectstatic's manifest.
    MIDDLEWARE.insert(1, "biblios_site.static.StaticFilesMiddleware")
    # TLS ends at the proxy in front of the workers (docs/deploy.md), which says so in this
    # header; it must overwrite any X-Forwarded-Proto a client sends (deploy/nginx/biblios.conf
    # does, tests/deploy/test_nginx.py checks).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
