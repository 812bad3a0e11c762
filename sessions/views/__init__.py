"""Views, one module per area: thin, over the services (writes) and selectors (reads)."""
