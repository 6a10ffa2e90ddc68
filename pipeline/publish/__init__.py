"""Stage 7, publish: the static site, the JSON API and `explain` over published datasets."""
