"""seeds/ -> content/: seed lists read into records, what they do not carry derived, content files written."""
