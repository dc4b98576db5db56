"""Forms of the rounds pages."""
