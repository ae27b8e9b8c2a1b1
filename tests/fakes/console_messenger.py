"""The table channel's messenger for a terminal (``bot/chat/messenger.py``): what a chat would post or
edit is printed, once. A new message is printed whole; an edit prints only the lines it adds at the
end (a table's newest events), so a terminal reads like the chat's log; buttons are listed by their
labels (the terminal's own keys choose among them: ``bot/console/keys.py``); a mention is a name.
Nothing to strip or delete: what is printed stays printed. A test double (the terminal itself,
``bot/console``, prints the views directly): it lets the chat tests run the table channel with no
platform at all.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat.messenger import Mention, Text
from bot.chat.screens import Button, Screen
from engine.service.views import PublicView, Seat
from words.i18n import t

TABLE, PRIVATE = "table", "private"


def plain(text: Text) -> str:
    tail = "".join(p.seat.name if isinstance(p, Mention) else p for p in text.after)
    return "\n".join(part for part in (text.body, tail) if part)


class ConsoleMessenger:
    name = "console"
    page = 100
    web_url = None

    def __init__(self, output: Callable[[str], object] = print, private_of: Callable[[Seat], bool] | None = None):
        self.output = output
        self.private_of = private_of or (lambda seat: seat.person)  # whose private screen shows here
        self._shown: dict[tuple, str] = {}
        self._next = 0

    def table_place(self, view: PublicView) -> str:
        return TABLE

    @staticmethod
    def chat_place(chat: str) -> str:
        return TABLE

    @staticmethod
    def key(place, message_id: int) -> tuple:
        return (place, message_id)

    def when(self, due_at: float, now: float, lang: str = "zh-Hans") -> str:
        return t(lang, "ui.clock.seconds", seconds=max(0, round(due_at - now)))

    def _print(self, place, text: str, buttons: list[Button]) -> None:
        head = "" if place == TABLE else f"[{place}] "
        self.output(head + text if head else text)
        if buttons:
            self.output("  " + " · ".join(b.label for b in buttons))

    async def post(self, place, text: Text, buttons: list[Button], picture: bytes | None = None, *,
                   reply_to: int | None = None, picture_name: str = "table.png") -> int:
        self._next += 1
        shown = plain(text)
        self._shown[(place, self._next)] = shown
        self._print(place, shown, buttons)
        return self._next

    async def edit(self, place, message_id: int, text: Text, buttons: list[Button], picture: bytes | None,
                   new_picture: bool, picture_name: str = "table.png") -> bool:
        shown = plain(text)
        before = self._shown.get((place, message_id), "").splitlines()
        lines = shown.splitlines()
        added = lines[len(before):] if lines[:len(before)] == before else [ln for ln in lines if ln not in before]
        self._shown[(place, message_id)] = shown
        if added or buttons:
            self._print(place, "\n".join(added), buttons)
        return True

    async def strip(self, place, message_id: int) -> None:
        return None

    async def delete(self, place, message_id: int) -> None:
        self._shown.pop((place, message_id), None)

    async def private_place(self, seat: Seat) -> str | None:
        return f"{PRIVATE}:{seat.name}" if self.private_of(seat) else None

    def reach(self, table: int, seat_no: int, seat: Seat, lang: str) -> Button:
        return Button(seat.name, f"h:{table}:{seat_no}", seat_no)

    def watch(self, table: int, lang: str, over: bool = False) -> Button | None:
        return None

    def own_link(self, table: int, lang: str) -> Button | None:
        return None

    def private_note(self, table: int, lang: str) -> str | None:
        return None

    async def refresh_own(self, table: int, seat: int, screen: Screen) -> None:
        return None
