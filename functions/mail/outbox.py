"""The local mode's mail sending: each message into a folder, to read instead of to deliver.

For message number ``n`` (counted on from the files already there, so it survives restarts)
to ``zoe@example.org`` of kind ``results``, the outbox holds::

    0007-zoe@example.org-results.eml        the message as SES would have sent it
    0007-zoe@example.org-results.txt        its text part
    0007-zoe@example.org-results.html       its HTML part, opening in a browser: each
    0007-zoe@example.org-results-map.png    inline image written beside it, cid: rewritten

``send`` returns the common stem (``0007-zoe@example.org-results``), the message's id in the
outbox. File names keep only letters, digits and ``@._+-`` of the address and kind.
"""

from __future__ import annotations

import mimetypes
import re
import threading
from collections.abc import Callable
from email.message import EmailMessage, MIMEPart
from email.utils import parseaddr
from pathlib import Path
from urllib.parse import quote

from functions.mail.compose import KIND_HEADER

UNSAFE = re.compile(r"[^A-Za-z0-9@._+-]+")
NUMBERED = re.compile(r"(\d+)-.*\.eml")
NAME_LIMIT = 60


class OutboxMailer:
    """Writes every message sent into ``folder`` (created when missing)."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)
        self._lock = threading.Lock()

    def send(self, message: EmailMessage) -> str:
        self.folder.mkdir(parents=True, exist_ok=True)
        to = safe_name(parseaddr(str(message.get("To", "")))[1].lower() or "nobody")
        kind = safe_name(str(message.get(KIND_HEADER, "")) or "mail")
        data = message.as_bytes()
        with self._lock:
            stem = self._claim(f"{to}-{kind}", data)
        text = message.get_body(preferencelist=("plain",))
        if isinstance(text, MIMEPart):
            (self.folder / f"{stem}.txt").write_text(_content(text), encoding="utf-8")
        html = message.get_body(preferencelist=("html",))
        if isinstance(html, MIMEPart):
            page = self._write_inline_images(message, stem, _content(html))
            (self.folder / f"{stem}.html").write_text(page, encoding="utf-8")
        return stem

    def _claim(self, name: str, data: bytes) -> str:
        """Write the .eml under the next free number; exclusive creation keeps two hosts
        sharing the folder from writing the same number."""
        number = self._last_number() + 1
        while True:
            stem = f"{number:04d}-{name}"
            try:
                with (self.folder / f"{stem}.eml").open("xb") as file:
                    file.write(data)
            except FileExistsError:
                number += 1
                continue
            return stem

    def _last_number(self) -> int:
        numbers = [
            int(found.group(1)) for path in self.folder.iterdir() if (found := NUMBERED.fullmatch(path.name))
        ]
        return max(numbers, default=0)

    def _write_inline_images(self, message: EmailMessage, stem: str, page: str) -> str:
        for part in message.walk():
            content_id = str(part.get("Content-ID", "")).strip().strip("<>")
            if not content_id or part.is_multipart():
                continue
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes):
                continue
            extension = mimetypes.guess_extension(part.get_content_type()) or ".bin"
            filename = f"{stem}-{safe_name(content_id)}{extension}"
            (self.folder / filename).write_bytes(payload)
            reference = re.compile(rf"cid:{re.escape(content_id)}(?=[\"'\s)>]|$)")
            # A function replacement: the file name is literal text, not a template.
            page = reference.sub(_literal(quote(filename, safe="@+")), page)
        return page


def _content(part: MIMEPart) -> str:
    """A text part's content with the wire's CRLF line ends read as newlines."""
    return str(part.get_content()).replace("\r\n", "\n")


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    return lambda _: text


def safe_name(value: str) -> str:
    """``value`` with only file-name-safe characters, at most ``NAME_LIMIT`` of them."""
    return UNSAFE.sub("_", value).strip("._-")[:NAME_LIMIT] or "_"
