"""Stage 1, source: a repository at a commit, read straight from the object database (no checkout)."""
