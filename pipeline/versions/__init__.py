"""Stage 6, versions: regeneration at newer commits, the scheduled job, and diffs between versions."""
