"""High card's log lines: one engine event (already filtered by `events_for`) in words."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def log_line(context, event: dict) -> str:
    names = context["names"]
    kind = event["type"]
    if kind == "dealt":
        return f"Cards dealt; {names[event['leader']]} leads"
    if kind == "played":
        card = event.get("card")
        return f"{names[event['seat']]} plays {card or 'a card'} face down"
    if kind == "trick":
        return f"{names[event['winner']]} wins the trick for {event['points']}"
    return f"Game over: {', '.join(names[seat] for seat in event['winners'])} won"
