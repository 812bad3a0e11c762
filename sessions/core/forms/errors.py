"""A service's refusal shown on the form that asked for it."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def add_service_error(form: forms.BaseForm, error: ValidationError) -> None:
    """Under the field the refusal names if the form has it, else on top of the form."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, errors in error.error_dict.items():
        form.add_error(name if name in form.fields else None, errors)
