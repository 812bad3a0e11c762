"""The rubber and Chicago score pad (public, phone first) and its scores kept on the server."""
