"""The tables' phones (a pairs table's, a teams room's), their links, calls and the round clock."""
