"""The package version, in a leaf module that every other one may import."""

__version__ = "0.1.0"
