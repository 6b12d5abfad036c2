"""Quartermaster: rule tables, generators, sheets and dice for age-of-sail games."""

__version__ = "0.1.0"
