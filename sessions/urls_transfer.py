"""Results in and out: imports and exports."""

urlpatterns: list = []
