"""The HTTP service: JSON API and the exemplar gallery."""
