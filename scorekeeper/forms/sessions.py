"""Forms of the sessions pages."""
