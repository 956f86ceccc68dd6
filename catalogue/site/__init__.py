"""content/ -> site/: every page and data file rendered, then written (output is the only writer of site/)."""
