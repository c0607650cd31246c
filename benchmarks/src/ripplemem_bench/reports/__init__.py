"""Typed results as tables and plots: the console, Markdown, and the benchmarks pages."""
