"""Polite requests to the lookup service: one at a time, at most REQUESTS_PER_SECOND, a contact
address when given (OpenAlex's `mailto`), and a few retries with growing waits on 429 and 5xx
answers, timeouts and refused connections. Standard library only (urllib): nothing to install.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

DEFAULT_URL = "https://api.openalex.org"
REQUESTS_PER_SECOND = 5  # OpenAlex allows far more; a catalogue's lookup is not in a hurry
LONGEST_WAIT = 60.0  # seconds: a Retry-After beyond it is not waited for


@dataclass(frozen=True)
class LookupSettings:
    """Where and how to ask (cli.py's --lookup-url, --lookup-mailto; OPENALEX_API_KEY)."""

    url: str = DEFAULT_URL
    mailto: str | None = None
    api_key: str | None = None
    retries: int = 3  # after the first try
    backoff: float = 1.0  # seconds before the first retry, doubled for each next one
    timeout: float = 20.0
    interval: float = 1 / REQUESTS_PER_SECOND


class Unanswered(Exception):
    """The service gave no usable answer after the retries; str() says why, for the build's summary."""


class Service:
    """One client for a whole lookup: it keeps the pace between requests."""

    def __init__(self, settings: LookupSettings):
        self.settings = settings
        self.last = None
        contact = f" (mailto:{settings.mailto})" if settings.mailto else ""
        self.headers = {"User-Agent": f"paper-catalogue{contact}", "Accept": "application/json"}

    def get_json(self, address: str) -> object:
        """The decoded JSON at `address`; Unanswered after the retries (its message names the last failure)."""
        for attempt in range(self.settings.retries + 1):
            wait, reason = self.settings.backoff * 2 ** attempt, None
            self.keep_pace()
            try:
                with urllib.request.urlopen(urllib.request.Request(address, headers=self.headers),
                                            timeout=self.settings.timeout) as answer:
                    body = answer.read()
            except urllib.error.HTTPError as error:
                if error.code != 429 and error.code < 500:
                    raise Unanswered(f"the service answered HTTP {error.code}") from None
                reason = f"HTTP {error.code}"
                wait = max(wait, retry_after(error.headers.get("Retry-After")))
            except (urllib.error.URLError, socket.timeout, ConnectionError) as error:
                reason = f"unreachable ({getattr(error, 'reason', error)})"
            else:
                try:
                    return json.loads(body)
                except (UnicodeDecodeError, ValueError):
                    raise Unanswered("the service answered something that is not JSON") from None
            if attempt < self.settings.retries and wait <= LONGEST_WAIT:
                self.pause(wait)
            else:
                break
        raise Unanswered(f"the service gave no answer: {reason}")

    def keep_pace(self) -> None:
        now = time.monotonic()
        if self.last is not None and now - self.last < self.settings.interval:
            self.pause(self.settings.interval - (now - self.last))
        self.last = time.monotonic()

    def pause(self, seconds: float) -> None:
        time.sleep(seconds)


def retry_after(value: str | None) -> float:
    """Seconds a 429 asks to wait (Retry-After in seconds; a date or junk reads as none)."""
    try:
        return max(0.0, float(value)) if value else 0.0
    except ValueError:
        return 0.0
