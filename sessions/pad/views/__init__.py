"""Thin views: check permission, call a selector or a service, render."""
