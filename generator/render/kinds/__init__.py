"""One module per sheet kind (``duel-record`` → ``duel_record.py``), or a package where a
kind has grown into several (``map/``, ``counters/``: the kind is its ``__init__``), each
defining

    def context(rules: Rules, data: dict | None, paper: str, ruleset: str | None) -> dict

which returns the template's variables. A kind that takes anything from its ruleset's spec
section also defines (a package in its ``spec`` module)

    def section_schema(ruleset: str) -> Node

the shape of that section in the schema nodes. Kinds are imported only when a sheet is made:
then every one, as `generator.render.specs` checks every spec's sections at once."""
