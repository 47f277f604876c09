"""The in-app rules: one concise page per game kind and variant, in the variant's own names."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from games.kinds import registry


@require_GET
def rules(request, kind: str | None = None, variant: str | None = None):
    """The rules of `kind` (the first installed one by default) as played in `variant` (the
    kind's default by default)."""
    try:
        game_kind = registry.get(kind) if kind else registry.kinds()[0]
    except registry.UnknownKind:
        owner = _kind_with_variant(kind) if variant is None else None
        if owner is None:
            raise Http404("no such game") from None
        return redirect("rules", owner.slug, kind, permanent=True)
    variant = variant or game_kind.default_variant
    if variant not in {v.slug for v in game_kind.variants}:
        raise Http404("no such variant")
    context = {
        "kind": game_kind,
        "variant": variant,
        "variant_name": game_kind.variant_name(variant),
        "variants": game_kind.variants,
        "names": game_kind.rules_names(variant),
    }
    return render(request, game_kind.rules_template, context)


def _kind_with_variant(slug: str) -> registry.GameKind | None:
    """The kind one of whose variants is `slug`: the rules pages were /rules/<edition>/ before
    there were kinds, and bookmarks of them still lead to the page."""
    return next((k for k in registry.kinds() if slug in {v.slug for v in k.variants}), None)
