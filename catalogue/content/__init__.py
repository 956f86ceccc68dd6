"""content/: the catalogue's database, one Markdown file per paper (YAML front matter + abstract)
and the topic taxonomy; people edit it, so it is read strictly.

fields (the paper file's schema) <- paper_file (one file) <- papers (the folder); strict_yaml
beneath them and taxonomy (topics.yaml); rules loads the catalogue the build renders.
"""
