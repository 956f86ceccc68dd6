"""site/ -> site/pagefind/ and the offline index: search over what the render recorded."""
