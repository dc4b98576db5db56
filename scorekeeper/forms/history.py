"""Forms of the history pages."""
