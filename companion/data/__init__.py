"""Export and import: our JSON and CSV, BG Stats' backup format, one import transaction."""
