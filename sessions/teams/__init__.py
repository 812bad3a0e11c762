"""Teams events: the event, its teams and matches, their entry and correction, the players' pages."""
