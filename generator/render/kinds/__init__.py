"""One module per sheet kind (``duel-record`` → ``duel_record.py``), or a package where a
kind has grown into several (``map/``, ``counters/``: the kind is its ``__init__``), each
defining

    def context(rules: Rules, data: dict | None, paper: str, ruleset: str | None) -> dict

which returns the template's variables. Kinds are imported only when rendered."""
