"""The leaderboard page, and its JSON twin for API clients (docs/ratings.md)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.api_protocol import api_view
from biblios_site import errors
from games.kinds import registry
from ratings import elo, selectors


class UnknownBoard(errors.BadRequest):
    """A leaderboard of a game or variant the site does not host."""


def _kind_and_variant(request) -> tuple[registry.GameKind, str]:
    """The leaderboard asked for: `?kind=&variant=`, by default the first live kind and its
    default variant."""
    kinds = registry.kinds()
    slug = request.GET.get("kind") or kinds[0].slug
    try:
        kind = registry.get(slug)
    except registry.UnknownKind:
        raise UnknownBoard(
            _("Unknown game “%(kind)s”: choose one of %(kinds)s.")
            % {"kind": slug[:40], "kinds": ", ".join(kind.slug for kind in kinds)}
        ) from None
    variants = [variant.slug for variant in kind.variants]
    variant = request.GET.get("variant") or kind.default_variant
    if variant not in variants:
        raise UnknownBoard(
            _("Unknown variant “%(variant)s” of %(kind)s: choose one of %(variants)s.")
            % {"variant": variant[:40], "kind": kind.name, "variants": ", ".join(variants)}
        )
    return kind, variant


def _boards() -> list[dict]:
    """Every leaderboard, for the page's switcher: one per variant of each live kind."""
    return [
        {"kind": kind.slug, "variant": variant.slug, "label": variant.name}
        for kind in registry.kinds()
        for variant in kind.variants
    ]


@require_GET
def leaderboard(request):
    """Players with at least one rated game in the variant, best first, paginated."""
    try:
        kind, variant = _kind_and_variant(request)
    except UnknownBoard as refusal:
        context = {"boards": _boards(), "error": str(refusal)}
        return render(request, "ratings/leaderboard.html", context, status=400)
    context = {
        "boards": _boards(),
        "kind": kind.slug,
        "variant": variant,
        "variant_label": kind.variant_name(variant),
        "page": selectors.leaderboard_page(kind.slug, variant, request.GET.get("page")),
        "provisional_games": elo.PROVISIONAL_GAMES,
    }
    return render(request, "ratings/leaderboard.html", context)


@api_view("GET")
def api_leaderboard(request):
    """`GET /api/leaderboard?kind=&variant=&page=`: the same rows as the page, as JSON."""
    kind, variant = _kind_and_variant(request)
    page = selectors.leaderboard_page(kind.slug, variant, request.GET.get("page"))
    return JsonResponse(
        {
            "kind": kind.slug,
            "variant": variant,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "count": page.paginator.count,
            "players": [
                {
                    "rank": row.rank,
                    "username": row.user.username,
                    "name": str(row.user),
                    "rating": round(row.rating),
                    "games": row.games,
                    "provisional": row.provisional,
                }
                for row in page.object_list
            ],
        }
    )
