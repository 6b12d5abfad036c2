"""One module per sheet kind (``duel-record`` → ``duel_record.py``), each defining

    def context(rules: Rules, data: dict | None, paper: str, ruleset: str | None) -> dict

which returns the template's variables. Kinds are imported only when rendered."""
