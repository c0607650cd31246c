"""``python -m ripplemem`` runs the CLI (same as the ``ripplemem`` script)."""

from ripplemem.cli.main import main

if __name__ == "__main__":
    main()
