"""Hand records and double-dummy analysis in the web app.

- services: deals onto boards (a hand-record file, random deals), and the analysis of
  pending boards, in the background after the commit or from ``analyse_boards``.
- selectors: what the pages show (a board's diagram, table, par and chart; a pair's
  results against par), each in a fixed number of queries.
- receivers: sessions created by an import, or a board saved with a new deal, get
  their pending boards analysed after the commit.

The pure bridge layer (deals, DDS, charts) is sessions.handrecords. This package
imports nothing at load time: sessions.models imports ``receivers`` while the models
are still loading.
"""
