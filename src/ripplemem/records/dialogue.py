"""Dialogue input: turns, sessions, conversations and the windows cut from them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

#: how a shared image is restated: "<Speaker> shared a photo of <its caption>" (or "...: caption")
SHARED_PHOTO = "shared a photo"


def shares_a_photo(restatement: str, speakers: tuple[str, ...] | list[str]) -> bool:
    """Whether a unit restates a shared image (its caption): a description of a picture by an
    image captioner, not something its speaker said."""
    return any(restatement.startswith(f"{s} {SHARED_PHOTO}") for s in speakers)


@dataclass(frozen=True, slots=True)
class Turn:
    """One message. ``turn_id`` is unique within its conversation (e.g. LoCoMo ``D1:3``)."""

    turn_id: str
    speaker: str
    text: str
    caption: str | None = None  # an image caption shared with the message, kept as text
    #: the caller's JSON object for this message (with the add's own): stored on its units
    metadata: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Session:
    """A run of turns that happened together at ``time`` (None when unknown). ``utc_offset``:
    the offset the time was given with, the speaker's clock (``time`` is then UTC once the
    writer checked it); the days a message names are read on that clock."""

    session_id: str
    time: datetime | None
    turns: tuple[Turn, ...]
    utc_offset: timedelta | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """Sessions between a set of speakers, in time order."""

    conversation_id: str
    sessions: tuple[Session, ...]
    speakers: tuple[str, ...] = field(default=())

    def all_speakers(self) -> tuple[str, ...]:
        if self.speakers:
            return self.speakers
        seen: dict[str, None] = {}
        for session in self.sessions:
            for turn in session.turns:
                seen.setdefault(turn.speaker, None)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Window:
    """Consecutive turns of one session handed to an extractor as a unit of work.

    ``focus_from`` is the index of the first turn that is new in this window; the turns
    before it are overlap carried over from the previous window, given as context only.
    """

    session_id: str
    session_time: datetime | None
    turns: tuple[Turn, ...]
    speakers: tuple[str, ...]
    focus_from: int = 0
    utc_offset: timedelta | None = None  # the session's (see Session)

    @property
    def local_time(self) -> datetime | None:
        """The session's time on the speaker's clock, what a message's "yesterday" or "this
        morning" is read against: its UTC time moved by the offset it was given with."""
        if self.session_time is None or self.utc_offset is None:
            return self.session_time
        return self.session_time + self.utc_offset

    @property
    def focus_turns(self) -> tuple[Turn, ...]:
        return self.turns[self.focus_from :]
