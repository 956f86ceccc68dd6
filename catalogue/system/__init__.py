"""What every stage runs on: worker processes, locks, caches, safe places to write, the terminal."""
