"""Forms: they read the request, the services decide."""
