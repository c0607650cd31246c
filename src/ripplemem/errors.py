"""The ripplemem exception tree.

    RippleMemError                      root: catch this to catch everything we raise
    ├── UsageError                      the caller asked for something wrong; fix the call
    │   ├── InvalidInputError           empty / malformed conversation, bad date, oversized message
    │   ├── UnknownNamespaceError       the namespace holds no memory
    │   ├── UnknownUnitError            no unit with that id
    │   ├── UnknownRecipeError          no recipe with that name
    │   ├── ConfigurationError          settings that cannot work together
    │   │   └── LLMNotConfiguredError       ``answer`` asked of a memory without an LLM
    │   ├── FileAccessError             a file outside the store (an export) cannot be written
    │   └── FittedQuestionsError        fitted weights would be evaluated on their own questions
    ├── ShuttingDownError               the memory closed before the call finished; nothing stored
    ├── StoreError                      the store failed or refuses
    │   ├── EmbedderMismatchError       the store was built with another embedder
    │   ├── StoreReadOnlyError          the file or its folder cannot be written; data is safe
    │   ├── StoreCorruptError           the file is damaged or truncated; keep a copy, restore
    │   ├── StoreFullError              the disk (or a file size limit) is full; write undone
    │   └── StoreLockedError            another writer held the lock too long; retry
    ├── OverBudgetError                 the call ran past its time budget; nothing of it was stored
    └── ProviderError                   a model provider failed
        ├── ProviderUnavailableError    endpoint unreachable, timed out or rate-limited after retries
        ├── InvalidModelOutputError     the model kept returning output that fails validation
        │   └── TruncatedOutputError    the reply hit max_tokens before its JSON was complete
        └── MissingExtraError           an optional dependency is not installed

Every message says what went wrong and what to do next; a remedy only Python has is said in
the words of the face that shows the message (:func:`said_on`: the command line, REST, MCP).
"""

from __future__ import annotations


class RippleMemError(Exception):
    """Root of every error ripplemem raises."""


class UsageError(RippleMemError):
    """The caller asked for something that cannot be done; change the call."""


class InvalidInputError(UsageError, ValueError):
    """Input data (a conversation, message, date, file) is empty or malformed."""


class UnknownNamespaceError(UsageError, KeyError):
    """The namespace holds no memory."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else "unknown namespace"


class UnknownUnitError(UsageError, KeyError):
    """No memory unit has this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown unit"


class UnknownRecipeError(UsageError, KeyError):
    """No recall recipe has this name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown recipe"


class ConfigurationError(UsageError):
    """Settings that cannot work together."""


class LLMNotConfiguredError(ConfigurationError):
    """``answer`` needs an LLM and none is configured; the message says how to configure one
    (search works without). HTTP 422, as every ConfigurationError."""


#: what every face says when ``answer`` is asked without an LLM
NO_LLM = (
    "answering needs an LLM and none is configured. Point ripplemem at any OpenAI-compatible "
    "endpoint: set RIPPLEMEM_LLM_BASE_URL (e.g. http://localhost:8000/v1 or "
    "https://api.openai.com/v1), RIPPLEMEM_LLM_MODEL and, if it needs one, "
    "RIPPLEMEM_LLM_API_KEY before `ripplemem serve` / `ripplemem answer`, or pass "
    "Settings(llm=LLMSettings(base_url=..., model=...)) in Python. Searching works without one"
)


#: remedies a message names in Python's words ...
DELETE_NAMESPACE = "delete_all() the namespace"
RAISE_MESSAGE_LIMIT = " or raise WriteSettings.max_message_chars"
RAISE_QUERY_LIMIT = ", or raise Settings.max_query_chars"
#: ... and the same remedies on the other faces: the command line ("cli", which has no verb to
#: empty a namespace and no option for the two limits), the REST API ("rest") and the MCP tools
#: ("mcp"); a face without the remedy says the rest of the message only
_ON_FACES: dict[str, dict[str, str]] = {
    DELETE_NAMESPACE: {
        "cli": "delete its memories (`ripplemem list`, then `ripplemem delete ID` for each)",
        "rest": "empty the namespace (DELETE /v1/memories)",
        "mcp": "empty the namespace (the tool delete_all_memories)",
    },
    RAISE_MESSAGE_LIMIT: {"cli": "", "rest": "", "mcp": ""},
    RAISE_QUERY_LIMIT: {"cli": "", "rest": "", "mcp": ""},
}


def said_on(message: str, face: str) -> str:
    """``message`` (an error's text, naming its remedy in Python's words) as ``face`` ("cli",
    "rest" or "mcp") says it: each remedy in the words of that face."""
    for remedy, faces in _ON_FACES.items():
        if remedy in message and face in faces:
            message = message.replace(remedy, faces[face])
    return message


class FileAccessError(UsageError, OSError):
    """A file outside the store (an export, an import) cannot be written or read: a missing
    folder, a folder given as the file, no permission. The message names the path and the fix;
    the store is unchanged."""


class FittedQuestionsError(UsageError):
    """Fusion weights would be evaluated on the questions they were fitted on."""


class ShuttingDownError(RippleMemError):
    """The memory was closed (the server stopped: SIGTERM) before this call's work could finish
    (HTTP 503): nothing of it was stored, and sending it again is safe. A stopping server cuts
    only requests whose write has not begun; one whose write reached a worker thread runs to its
    end and answers as usual (``ripplemem.server.gate.CutShort``), so this error never hides a
    stored write."""


class StoreError(RippleMemError):
    """The store failed or refuses an operation."""


class EmbedderMismatchError(StoreError):
    """The store was built with a different embedding model or dimension."""


class StoreReadOnlyError(StoreError):
    """The store's file, its folder or its file system cannot be written. Nothing was changed."""


class StoreCorruptError(StoreError):
    """The store's file is damaged or truncated. Nothing was changed by the failing call."""


class StoreFullError(StoreError):
    """The disk (or the process's file size limit) is full: the failing write was rolled back."""


class StoreLockedError(StoreError):
    """Another connection held the store's lock longer than the wait allowed. Nothing was
    changed by the failing call; retrying later is safe."""


class OverBudgetError(RippleMemError):
    """The call ran past the time budget it was given (:func:`ripplemem.deadline.within`: a
    server's per-request budget); a write was rolled back, nothing of it was stored. Send less
    at once (several smaller adds), or give the call more time."""


class ProviderError(RippleMemError):
    """A chat or embedding provider failed."""


class ProviderUnavailableError(ProviderError):
    """The endpoint could not be reached, timed out, or kept rate-limiting after retries."""


class InvalidModelOutputError(ProviderError):
    """The model kept returning output that fails schema validation. ``raw`` is its last reply
    (empty when unknown), ``tokens`` what the failed calls cost."""

    def __init__(self, message: str = "", *, raw: str = "", tokens: int = 0) -> None:
        super().__init__(message)
        self.raw = raw
        self.tokens = tokens


class TruncatedOutputError(InvalidModelOutputError):
    """The reply stopped at ``max_tokens`` (``finish_reason == "length"``) before its JSON was
    complete. Re-asking with a longer prompt does not help: ask for less (a smaller window,
    fewer items). ``tokens`` is what the truncated call cost."""


class MissingExtraError(ProviderError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""


def missing_extra(package: str, extra: str) -> MissingExtraError:
    return MissingExtraError(
        f"{package!r} is not installed. Install it with: pip install 'ripplemem[{extra}]'"
    )
