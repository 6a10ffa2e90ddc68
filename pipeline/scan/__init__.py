"""Stage 3, scan: every file's sites through its language, in a process pool, cached per blob; ids, patterns and error classes across the repository."""
