"""Render printable sheets: Jinja2 templates, filled with rules and generated data, laid out
by WeasyPrint. WeasyPrint is imported only here, and only when a PDF is made."""
