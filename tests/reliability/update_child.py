"""Child process of the update tests: updates a unit and SIGKILLs itself when a named function
is entered for the first time (a profile hook watches the calls: no code is patched).

    python update_child.py STORE UNIT_ID TEXT FUNCTION
"""

from __future__ import annotations

import os
import signal
import sys

from ripplemem import Memory
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.settings import Settings


def main() -> None:
    store, unit_id, text, target = sys.argv[1:5]
    memory = Memory(Settings(store=store), embedder=MiniLMFloatEmbedder())

    def hook(frame, what, _arg):
        if what == "call" and frame.f_code.co_qualname == target:
            os.kill(os.getpid(), signal.SIGKILL)

    sys.setprofile(hook)
    memory.update(unit_id, text, namespace="maya")
    sys.setprofile(None)
    print("done", flush=True)


if __name__ == "__main__":
    main()
