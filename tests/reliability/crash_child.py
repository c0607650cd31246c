"""Child process of the crash-injection tests: opens a store, adds the crash conversation, and
SIGKILLs itself when a named function is entered or returns for the n-th time (a profile hook
watches the calls: no code is patched), or waits for its parent's kill at a random moment.

    python crash_child.py STORE FUNCTION EVENT N      # EVENT: call | return
    python crash_child.py STORE - random 0            # prints "ready", then adds
"""

from __future__ import annotations

import os
import signal
import sys

from ripplemem import Memory
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from tests.reliability.scenario import crash_conversation, settings


def main() -> None:
    store, target, event, nth = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    memory = Memory(settings(store), embedder=MiniLMFloatEmbedder())
    conversation = crash_conversation()
    seen = 0

    def hook(frame, what, _arg):
        nonlocal seen
        if what == event and frame.f_code.co_qualname == target:
            seen += 1
            if seen == nth:
                os.kill(os.getpid(), signal.SIGKILL)

    print("ready", flush=True)
    if event != "random":
        sys.setprofile(hook)
    memory.add(conversation, namespace="ns")
    sys.setprofile(None)
    print("done", flush=True)


if __name__ == "__main__":
    main()
