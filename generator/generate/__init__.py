"""Generators: fleets, ships, crews, officers, duellists and whole scenarios, from a seed."""
