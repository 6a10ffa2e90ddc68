"""errdoc: an error-knowledge pipeline for Rust repositories."""

__version__ = "0.1.0"
