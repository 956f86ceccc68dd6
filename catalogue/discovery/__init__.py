"""Related papers and the map of the catalogue.

terms, vectors, neighbours, changes, kept_related and map are pure functions of a list of plain
texts (title + abstract, one a paper) that name a paper by its position in the list. Same texts,
same answer: every random choice is seeded, scores are rounded to six decimals and map positions
to four, ties go to the lower index. related.py asks them of the similarity process
(similarity_process.py), forked beside the build.
"""
