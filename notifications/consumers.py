"""`ws/me/`: the navigation's counts of a logged-in reader, pushed when they change."""

from types import SimpleNamespace

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils.module_loading import import_string

from accounts import credentials
from accounts.middleware import in_reader_language
from biblios_site.overload import admit_message
from biblios_site.sockets import CLOSE_UNAUTHENTICATED, Consumer
from notifications import live


class NavConsumer(Consumer):
    """`ws/me/`: the navigation's counts ("Your turn", unread notifications, friend requests
    waiting) of a logged-in reader, opened by every page of theirs (templates/base.html) and
    pushed whenever a commit changes one of them (`notifications.live`), as out-of-band swaps.
    It sends its counts on connect too, so a page from the browser's cache is put right at once.
    Frames from the page are ignored; logging out closes it like the game sockets."""

    async def connect(self):
        await self.accept()
        self.user = self.scope.get("user")
        session_key = getattr(self.scope.get("session"), "session_key", None)
        if self.user is None or not self.user.is_authenticated or not session_key:
            self.user = None
            await self.close(CLOSE_UNAUTHENTICATED)
            return
        self.groups_joined = [
            live.nav_group(self.user.pk),
            credentials.session_group(session_key),
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.nav_changed({})

    async def disconnect(self, code):
        if self.user is None:
            return
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to ask this socket (htmx's ws extension sends only what a form asks); one
        that floods it is closed all the same."""
        await admit_message(self, self.user)

    async def nav_changed(self, event):
        await self.send(text_data=await database_sync_to_async(self._render_counts)())

    async def credentials_ended(self, event):
        """The login session this socket was opened with ended (logged out)."""
        await self.disconnect(CLOSE_UNAUTHENTICATED)
        self.user = None
        await self.close(CLOSE_UNAUTHENTICATED)

    @in_reader_language
    def _render_counts(self) -> str:
        return render_to_string("_nav_counts.html", nav_counts(self.user))


def nav_counts(user) -> dict:
    """The navigation's counts, from the context processors every page uses
    (`settings.NAV_COUNTS`: the games', notifications' and friends' own), so this socket and
    the pages count alike and notifications import no other app's queries. Each processor
    reads only the request's user."""
    reader = SimpleNamespace(user=user)
    context = {}
    for path in settings.NAV_COUNTS:
        context.update(import_string(path)(reader))
    return context
