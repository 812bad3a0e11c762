"""Hand records and double-dummy analysis in the web app.

- services: deals onto boards (a hand-record file, random deals), ``analysis_request``
  for any code that stores deals (an import, the admin), and the analysis of pending
  boards, in the background after the commit or from ``analyse_boards``.
- selectors: what the pages show (a board's diagram, table, par and chart; a pair's
  results against par), each in a fixed number of queries.

The pure bridge layer (deals, DDS, charts) is sessions.handrecords.
"""
