"""Abstract text -> safe HTML (allowlisted inline HTML, LaTeX text commands, math as MathML) and plain text."""
