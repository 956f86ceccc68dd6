"""Turn plain lists of conference abstracts into a static, searchable catalogue."""
