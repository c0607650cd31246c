"""The Duckling child process: ``python duckling_worker.py ZONEINFO_DIR``.

Run as a script by :class:`~ripplemem.grounding.duckling_process.DucklingProcess` (not imported:
it needs nothing of ripplemem, so the child starts in about 0.1 s). It reads one JSON request per
line on stdin, ``[text, reference_epoch_seconds]`` or ``[text, reference_epoch_seconds, language]``
(an ISO 639-1 code Duckling knows; English without one), and answers one JSON line on stdout: ``["ok",
results, cpu_seconds]`` (the CPU the parse took) or ``["error", message, cpu_seconds]`` (a panic
of the native parser included). A first line
``["ready"]`` says the parser is loaded. It exits when stdin closes, so it never outlives the
process that started it.
"""

import json
import signal
import sys
import time


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    import duckling

    zones = duckling.load_time_zones(sys.argv[1])
    locales = {"en": duckling.default_locale_lang(duckling.parse_lang("EN"))}
    dims = duckling.parse_dimensions(["time"])
    out = sys.stdout
    out.write('["ready"]\n')
    out.flush()
    for line in sys.stdin:
        started = time.process_time()
        try:
            text, stamp, *rest = json.loads(line)
            language = rest[0] if rest else "en"
            if language not in locales:
                locales[language] = duckling.default_locale_lang(duckling.parse_lang(language.upper()))
            context = duckling.Context(
                duckling.parse_ref_time(zones, "UTC", int(stamp)), locales[language]
            )
            answer = ["ok", duckling.parse(text, context, dims, False)]
        except BaseException as error:  # a Rust panic is a BaseException
            if isinstance(error, SystemExit):
                raise
            answer = ["error", f"{type(error).__name__}: {error}"]
        answer.append(time.process_time() - started)
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
