"""The read-only JSON API (``/api/v1/``): django-ninja endpoints over the selectors.

``schemas`` says what each answer holds (and so the OpenAPI schema at /api/v1/schema/),
``access`` who asks (the public, or a club's key) and how answers are cached by revision,
``endpoints`` the routes, ``urls`` the API object. Every figure comes from the selectors
the players' pages read (sessions.pairs.selectors.public, events, players, teams): the API
never scores anything itself.
"""
