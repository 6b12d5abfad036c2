"""Generators: fleets, ships, crews, officers, duellists and whole scenarios, from a seed.

Importing the package imports the generator module every ruleset's spec names, which
registers it (`generator.ruleset.register`): from then on `generator.ruleset.contract`
gives any ruleset's implementation to the layers above without their importing this one.
"""

from generator.ruleset import registered
from generator.rulesets import SpecError, import_code, ruleset_specs


def _register_all() -> None:
    for spec in ruleset_specs().values():
        import_code(spec, "generator")
        if not registered(spec.id):
            line = spec.doc.line(("generator",))
            raise SpecError(
                f"{spec.doc.path}:{line}: importing {spec.generator} registered no generator "
                f"for '{spec.id}'"
            )


_register_all()
