"""content/ -> site/: every page and data file rendered, then written (catalogue/publish is the only writer of site/)."""
