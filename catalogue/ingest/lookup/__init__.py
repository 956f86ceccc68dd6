"""Real titles looked up at OpenAlex for papers whose list gives none (`--lookup`): the request,
the rule that takes a candidate only when its abstract is this paper's, and the record of the
answer in the paper's content file."""
