"""Related papers and the map of the catalogue."""
