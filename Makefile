# Everything runs from a project-local virtualenv that `make` creates and keeps in step
# with pyproject.toml, so a fresh clone needs only python3 and PyPI.

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/install.stamp

# The machine's PostgreSQL (trust auth) and Redis; pytest-django creates test_<name>.
SERVICES_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
SERVICES_REDIS_URL ?= redis://127.0.0.1:6379/0

# Browser tests drive Debian's chromium; Playwright never downloads a browser of its own.
CHROMIUM := /usr/bin/chromium

.PHONY: install run test test-services lint format browser

install: $(STAMP)

$(BIN)/python:
	python3 -m venv $(VENV)

# Reinstall only when the dependency declarations change.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $@

run: export DEBUG = 1
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_demo_admin
	$(BIN)/daphne -b 0.0.0.0 -p 8000 biblios_site.asgi:application

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

browser:
	@test -x $(CHROMIUM) || { \
		[ "$$(id -u)" = 0 ] || { echo "Browser tests need $(CHROMIUM): sudo apt-get install -y chromium"; exit 1; }; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

test: lint browser
	$(BIN)/pytest

test-services: install browser
	DATABASE_URL=$(SERVICES_DATABASE_URL) REDIS_URL=$(SERVICES_REDIS_URL) $(BIN)/pytest
