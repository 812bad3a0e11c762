"""Reads, in a fixed number of queries; never a write."""
