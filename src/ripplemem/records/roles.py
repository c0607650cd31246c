"""The roles of role-style messages (``{"role": "user", "content": ...}``) and who says them.

One table for every face (``Memory.add``, REST, MCP, the JSONL reader of ``ripplemem ingest``):
the three roles of OpenAI's chat format, and the names other libraries give the same sides
(LangChain's ``human`` and ``ai``, Gemini's ``model``, OpenAI's ``developer`` for its system
role), in any case. Any other role ("tool", "function", a typo "usr") is refused, never taken
for a person's name: a tool's output is no one's words.

A message carries no time of its own on any face: an add is one session, said at its
``session_time`` (a JSONL line's ``time`` is its session's). A key of :data:`TIME_KEYS` on a
message is refused with where the time goes, never dropped: the memories would be of no day.
"""

from __future__ import annotations

#: the speaker of each role: its own name for the three roles, the same side's for an alias
ROLE_SPEAKERS: dict[str, str] = {
    "user": "User", "assistant": "Assistant", "system": "System",
    "human": "User", "ai": "Assistant", "model": "Assistant", "developer": "System",
}  # fmt: skip


#: the names a time is given under on a message (OpenAI, LangChain and mem0 exports, ours)
TIME_KEYS = ("time", "session_time", "timestamp", "date", "datetime", "created_at")


def role_speaker(role: str) -> str | None:
    """The speaker of a message of ``role`` ("user", "Human" -> "User"), None for a role no
    table names."""
    return ROLE_SPEAKERS.get(role.strip().lower())


def unknown_role(role: object) -> str:
    """What to say of a message of ``role``, which :func:`role_speaker` does not know."""
    return (
        f"'role' must be 'user', 'assistant' or 'system' ('human' and 'ai' are read as 'user' "
        f"and 'assistant'), got {role!r}: use one of those, or write the message as "
        "{'speaker': 'Maya', 'text': '...'} to store it as said by that person; leave out tool "
        "output, which no one said"
    )
