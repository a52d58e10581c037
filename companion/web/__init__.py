"""What every blueprint shares: htmx helpers, security, errors and the one JSON error shape, templating and its filters, logs, the health check and the app shell."""
