"""WTForms classes, one module per area: they check the shape of what was
typed, nothing more, and never write."""
