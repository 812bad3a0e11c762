"""Hand records and double-dummy analysis: pure Python, no Django import in this package.

- deals: the `Deal` value, parsed from and written as a PBN deal string; HCP, suit
  lengths and hand-diagram lines for the board pages.
- generate: random deals for clubs that deal their own boards.
- pbn_handrecords: read a hand-record PBN file, write one for a dealing machine.
- analysis: double-dummy tables and par through DDS (endplay), stored as plain JSON.
- charts: small SVG charts (a board's score spread, a pair's board-by-board percentages,
  a player's percentages session by session).

Importing the package does not load the solver; ``analysis`` loads it on first use.
"""

from sessions.handrecords.analysis import Analysis, analyse, analyse_many, dd_tricks_for, result_against_par
from sessions.handrecords.charts import history_svg, percentages_svg, score_distribution_svg
from sessions.handrecords.deals import Deal, DealError, Hand, parse_deal
from sessions.handrecords.generate import random_deals
from sessions.handrecords.pbn_handrecords import read_hand_records, write_hand_records

__all__ = [
    "Analysis", "Deal", "DealError", "Hand",
    "analyse", "analyse_many", "dd_tricks_for", "history_svg", "parse_deal", "percentages_svg", "random_deals",
    "read_hand_records", "result_against_par", "score_distribution_svg", "write_hand_records",
]  # fmt: skip
