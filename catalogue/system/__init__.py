"""What every stage runs on: worker processes, locks, the build cache, removal, the terminal."""
