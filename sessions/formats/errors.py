"""The one exception the file readers raise for a file they cannot read faithfully."""


class FormatError(ValueError):
    """A results file that is malformed or unsupported.

    The message names the problem and, where it can, the line or element, e.g.
    "line 37: TRAVELLER_LINE names pair 14EW, who is not in the event".
    """
