"""The interface in every language: strings (the catalogue of strings, read and checked) and
locales/ (one file per language)."""
