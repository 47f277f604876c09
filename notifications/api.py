"""The notifications' JSON API under /api/notifications (docs/api.md): the list, and marking
them read."""

from django.http import JsonResponse

from accounts import api_protocol
from accounts.api_protocol import api_view, checked_fields, page_limit
from biblios_site import errors
from biblios_site.inputs import json_body, whole_number
from notifications import selectors as notices
from notifications import services as notice_services
from notifications import texts as notice_texts


@api_view("GET")
def notifications(request):
    """The caller's notifications, newest first (`?limit=`), and how many are unread."""
    limit = page_limit(request)
    rows = notices.latest(request.user, limit=limit)
    return JsonResponse(
        {
            "unread": notices.unread_count(request.user),
            "notifications": [_notification_json(row) for row in rows],
        }
    )


def _notification_json(notification) -> dict:
    """One notification, its texts in the reader's profile language (as its e-mail)."""
    text = notice_texts.render(notification)
    return {
        "id": notification.pk,
        "event": notification.event,
        "game": notification.game_id,
        "tournament": notification.tournament_id,
        "actor": str(notification.actor) if notification.actor_id else None,
        "title": text.title,
        "body": text.body,
        "url": text.url,
        "created_at": notification.created_at.isoformat(),
        "read": notification.read_at is not None,
    }


@api_view("POST")
def notifications_read(request):
    """Mark notifications read: `{"ids": [...]}`, or every one with `{"all": true}`."""
    data = checked_fields(json_body(request), {"ids": list, "all": bool})
    if data.get("all") is True and "ids" not in data:
        changed = notice_services.mark_read(request.user)
    elif "ids" in data and "all" not in data:
        ids = data["ids"]
        wrong = [i for i in ids if isinstance(i, bool) or whole_number(i) is None]
        if len(ids) > api_protocol.MAX_LIMIT or wrong or not all(isinstance(i, int) for i in ids):
            raise errors.BadRequest(
                f"ids must be a list of at most {api_protocol.MAX_LIMIT} notification ids"
            )
        changed = notice_services.mark_read(request.user, ids)
    else:
        raise errors.BadRequest('send {"ids": [<notification id>, ...]} or {"all": true}')
    return JsonResponse({"marked": changed, "unread": notices.unread_count(request.user)})
