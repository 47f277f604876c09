# Everything runs from a project-local virtualenv that `make` creates and keeps in step
# with pyproject.toml, so a fresh clone needs only python3 and PyPI.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/install.stamp

# The machine's PostgreSQL (trust auth) and Redis; pytest-django creates test_<name>.
SERVICES_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
SERVICES_REDIS_URL ?= redis://127.0.0.1:6379/0

# The suite runs in one pytest-xdist process per core, each on its own test database (and its
# own Redis database, biblios_site/settings_test.py); tests/conftest.py starts each process's
# share with its part of the slow tests (longest first), and worksteal evens out the end.
# Both passes run one process more than the cores: their tests spend about a third of their time
# waiting (the soak plays 3 minutes at a set pace, browsers and sockets wait on pushes, bots on
# their delays), and the extra process keeps both cores busy meanwhile (`make test` on 2 cores,
# 2026-12-01: 627 s with two processes at 137% of a core, 570 s with three at 147%).
PYTEST_JOBS ?= $(shell echo $$(( $$(nproc) + 1 )))
SERVICES_JOBS ?= $(PYTEST_JOBS)
PYTEST := $(BIN)/pytest --dist worksteal
# This machine's shell sets PYTHONDONTWRITEBYTECODE, and CI runs on it: every test process and
# every server a test starts would compile the project again, and each xdist process would
# rewrite the asserts of every test module again (7 of the 9 s of its collection).
test test-services: export PYTHONDONTWRITEBYTECODE =

# Browser tests drive Debian's chromium; Playwright never downloads a browser of its own.
CHROMIUM := /usr/bin/chromium

.PHONY: install run test test-services lint format browser deploy-tools gettext messages compilemessages

install: $(STAMP)

$(BIN)/python:
	python3 -m venv $(VENV)

# Reinstall only when the dependency declarations change.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

run: export DEBUG = 1
run: install compilemessages
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_demo_admin
	$(BIN)/daphne -b 0.0.0.0 -p 8000 biblios_site.asgi:application

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations: gettext's msgfmt/xgettext (Debian's gettext package) build and extract catalogues.
gettext:
	@command -v msgfmt >/dev/null || { \
		[ "$$(id -u)" = 0 ] || { echo "Translations need gettext: sudo apt-get install -y gettext"; exit 1; }; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext; }

# Building and extracting catalogues needs settings but no secrets: the test settings will do
# (the production settings refuse to load without SECRET_KEY).
compilemessages messages: export DJANGO_SETTINGS_MODULE = biblios_site.settings_test

# The .mo files are built, never committed (.gitignore); .venv holds Django's own, already built.
compilemessages: install gettext
	$(BIN)/python manage.py compilemessages --ignore=.venv

# Brings locale/fr and locale/es up to date with the code; then translate the new entries.
messages: install gettext
	$(BIN)/python manage.py update_translations

browser:
	@test -x $(CHROMIUM) || { \
		[ "$$(id -u)" = 0 ] || { echo "Browser tests need $(CHROMIUM): sudo apt-get install -y chromium"; exit 1; }; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

# The deployment tests (tests/deploy/, services pass) run docs/deploy.md's shape: Debian's nginx
# in front of the workers, and PostgreSQL's own pg_dump and pg_restore for the backups.
NGINX := /usr/sbin/nginx

deploy-tools:
	@test -x $(NGINX) && command -v pg_restore >/dev/null || { \
		[ "$$(id -u)" = 0 ] || { echo "The deployment tests need nginx and pg_restore: sudo apt-get install -y nginx postgresql-client"; exit 1; }; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx postgresql-client; }

# The tests of the deployment itself (marked `services` in tests/conftest.py) need PostgreSQL:
# only test-services runs them.
test: lint browser compilemessages
	$(PYTEST) --numprocesses $(PYTEST_JOBS) -m "not services"

# The pure tests and the browser tests of how pages look (both marked in tests/conftest.py)
# give the same answer against any services.
test-services: install browser deploy-tools compilemessages
	DATABASE_URL=$(SERVICES_DATABASE_URL) REDIS_URL=$(SERVICES_REDIS_URL) $(PYTEST) --numprocesses $(SERVICES_JOBS) -m "not pure and not look"
