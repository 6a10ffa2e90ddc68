"""errdoc: an error-knowledge pipeline for Rust repositories."""

from pipeline.core.native import install as _install_native

__version__ = "0.1.0"

# The index's compiled modules, where `make` built them from these very sources (`native`).
_install_native()
