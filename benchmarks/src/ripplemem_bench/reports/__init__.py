"""Result dicts as tables and plots: the console, Markdown, and ``docs/benchmarks.md``."""
