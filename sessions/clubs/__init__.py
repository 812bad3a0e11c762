"""The club's week: settings and directors, players, competitions, handicaps, master points, mails, embeds."""
